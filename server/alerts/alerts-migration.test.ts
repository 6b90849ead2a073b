import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { createDatabase, defaultMigrationsFolder, queryRows } from "../db/database";
import { AlertStore } from "./store";

const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const folders: string[] = [];
afterAll(() => Promise.all(folders.map((f) => rm(f, { recursive: true, force: true }))));

/** The migrations as they were before alerts became one per sentence (0000 and 0001 only). */
async function migrationsBefore(tag: string): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), "callroom-migrations-"));
  folders.push(folder);
  await cp(defaultMigrationsFolder(), folder, { recursive: true });
  const journalPath = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(await readFile(journalPath, "utf8")) as { entries: { tag: string }[] };
  const index = journal.entries.findIndex((e) => e.tag === tag);
  journal.entries = journal.entries.slice(0, index);
  await writeFile(journalPath, JSON.stringify(journal));
  return folder;
}

describe("migration 0004: one alert per sentence per user", () => {
  it("merges the alerts of one sentence that several rules fired into one naming every rule, keeping deliveries", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "callroom-pglite-"));
    folders.push(dataDir);
    const old = await createDatabase({
      dataDir,
      logger: quiet,
      migrationsFolder: await migrationsBefore("0004_alerts-per-sentence"),
    });
    await old.db.execute(sql`
      insert into alert_rules (user_id, kind, phrase) values ('user:ann', 'keyword', 'tariff'), ('user:ann', 'guidance', null),
        ('user:bob', 'keyword', 'tariff')`);
    await old.db.execute(sql`
      insert into alert_firings (user_id, rule_id, kind, subject, call_id, symbol, sequence, start_ms, text, read_at)
      values ('user:ann', 1, 'keyword', 'c1', 'c1', 'AAA', 5, 5000, 'We now expect tariffs.', now()),
             ('user:ann', 2, 'guidance', 'c1', 'c1', 'AAA', 5, 5000, 'We now expect tariffs.', null),
             ('user:ann', 1, 'keyword', 'c1', 'c1', 'AAA', 6, 6000, 'Tariffs again.', null),
             ('user:bob', 3, 'keyword', 'c1', 'c1', 'AAA', 5, 5000, 'We now expect tariffs.', null)`);
    await old.db.execute(sql`
      insert into alert_deliveries (firing_id, channel, target, attempt, ok, duration_ms)
      values (2, 'webhook', 'https://hooks.example.com', 1, true, 10)`);
    await old.close();

    const migrated = await createDatabase({ dataDir, logger: quiet });
    try {
      const store = new AlertStore(migrated.db);
      const ann = await store.listAlerts("user:ann", { limit: 10 });
      expect(ann.data.map((a) => [a.sequence, a.rules.map((r) => r.label), a.read])).toEqual([
        [6, ["“tariff”"], false],
        // One of the two was unread, so the merged alert is.
        [5, ["“tariff”", "Guidance"], false],
      ]);
      expect(ann.data[1]!.rules.map((r) => r.ruleId)).toEqual(["1", "2"]);
      expect((await store.listAlerts("user:bob", { limit: 10 })).data).toHaveLength(1);
      const deliveries = await queryRows<{ firing_id: number }>(
        migrated.db,
        sql`select firing_id from alert_deliveries`,
      );
      expect(deliveries.map((d) => Number(d.firing_id))).toEqual([Number(ann.data[1]!.id)]);
    } finally {
      await migrated.close();
    }
  }, 60_000);
});
