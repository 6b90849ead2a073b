/**
 * Retention (issue 26 item 5): alert firings older than the limit go with their delivery logs, delivery logs older
 * than theirs go alone, everything younger stays; 0 keeps everything. On both drivers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pruneOnce } from "@/server/db/retention";
import { alertDeliveries, alertFirings } from "@/server/db/schema/workspace";
import type { Database } from "@/server/db/database";
import { drivers } from "./drivers";

const NOW = new Date("2026-11-27T12:00:00Z");
const daysAgo = (n: number) => new Date(NOW.getTime() - n * 86_400_000).toISOString();

async function firing(
  db: Database["db"],
  subject: string,
  firedDaysAgo: number,
  deliveriesDaysAgo: number[],
) {
  const [row] = await db
    .insert(alertFirings)
    .values({
      userId: "alice",
      ruleIds: [1],
      matches: [],
      kind: "keyword",
      subject,
      symbol: "NWSC",
      text: "Tariffs weighed on margin.",
      firedAt: daysAgo(firedDaysAgo),
    })
    .returning({ id: alertFirings.id });
  for (const d of deliveriesDaysAgo) {
    await db.insert(alertDeliveries).values({
      firingId: row!.id,
      channel: "webhook",
      target: "https://hooks.example",
      attempt: 1,
      ok: true,
      status: 200,
      durationMs: 40,
      at: daysAgo(d),
    });
  }
}

for (const driver of drivers()) {
  describe(`retention on ${driver.name}`, { timeout: 120_000 }, () => {
    let database: Database;
    beforeAll(async () => {
      await driver.setup();
      ({ database } = await driver.open());
      await firing(database.db, "old", 200, [200, 199]);
      await firing(database.db, "recent", 40, [40, 10]);
      await firing(database.db, "today", 0, [0]);
    }, 120_000);
    afterAll(() => driver.teardown());

    it("keeps everything with both limits at 0", async () => {
      expect(await pruneOnce(database.db, { firingsDays: 0, deliveriesDays: 0 }, NOW)).toEqual({
        firings: 0,
        deliveries: 0,
      });
    });

    it("removes old firings with their deliveries, and old delivery logs of firings it keeps", async () => {
      const pruned = await pruneOnce(database.db, { firingsDays: 180, deliveriesDays: 30 }, NOW);
      // Deliveries first: the old firing's two (past 30 days) and the recent firing's 40-day-old one.
      expect(pruned).toEqual({ firings: 1, deliveries: 3 });
      const firings = await database.db.select({ subject: alertFirings.subject }).from(alertFirings);
      expect(firings.map((f) => f.subject).sort()).toEqual(["recent", "today"]);
      const deliveries = await database.db.select({ at: alertDeliveries.at }).from(alertDeliveries);
      expect(deliveries).toHaveLength(2);
      expect(await pruneOnce(database.db, { firingsDays: 180, deliveriesDays: 30 }, NOW)).toEqual({
        firings: 0,
        deliveries: 0,
      });
    });
  });
}
