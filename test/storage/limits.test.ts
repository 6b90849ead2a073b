import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/server/db/database";
import { AlertStore } from "@/server/alerts/store";
import { LIMITS } from "@/server/db/user-limits";
import { NotesRepository } from "@/server/workspace/notes";
import { WatchlistRepository } from "@/server/workspace/watchlists";
import { drivers } from "./drivers";

/**
 * Per-user limits under concurrency (issue 27, item 8): a limit checked by counting and then inserting lets two
 * transactions that count at once both add one more, on PostgreSQL's several connections (PGlite has one). Each
 * case fires many additions at once at a user one below the limit: exactly one may succeed.
 */

const CALL = "c".repeat(24);

for (const driver of drivers()) {
  describe(`per-user limits on ${driver.name}, many requests at once`, () => {
    let database: Database;

    beforeAll(async () => {
      await driver.setup();
      ({ database } = await driver.open());
    }, 120_000);
    afterAll(() => driver.teardown());

    const settle = async (n: number, add: (i: number) => Promise<unknown>) => {
      const results = await Promise.allSettled(Array.from({ length: n }, (_, i) => add(i)));
      const refused = results.filter((r) => r.status === "rejected");
      for (const r of refused) expect((r as PromiseRejectedResult).reason).toMatchObject({ status: 409 });
      return results.length - refused.length;
    };

    it("alert rules", async () => {
      const alerts = new AlertStore(database.db);
      for (let i = 0; i < LIMITS.rulesPerUser - 1; i++)
        await alerts.createRule("race", { kind: "keyword", phrase: `w${i}` });
      expect(await settle(20, (i) => alerts.createRule("race", { kind: "keyword", phrase: `x${i}` }))).toBe(
        1,
      );
      expect(await alerts.listRules("race")).toHaveLength(LIMITS.rulesPerUser);
    });

    it("notes, all calls together", async () => {
      const notes = new NotesRepository(database.db, 10);
      for (let i = 0; i < 9; i++) await notes.create("race", CALL, { text: `n${i}`, atMs: i });
      expect(
        await settle(20, (i) => notes.create("race", `${i}`.padStart(24, "d"), { text: "x", atMs: 0 })),
      ).toBe(1);
      const mine = await Promise.all(
        Array.from({ length: 20 }, (_, i) => notes.list("race", `${i}`.padStart(24, "d"))),
      );
      const n = (await notes.list("race", CALL)).length + mine.flat().length;
      expect(n).toBe(10);
    });

    it("watchlists, and tickers across them", async () => {
      const lists = new WatchlistRepository(database.db);
      for (let i = 0; i < LIMITS.watchlistsPerUser - 1; i++)
        await lists.create("race", { name: `l${i}`, tickers: [] });
      expect(await settle(20, (i) => lists.create("race", { name: `m${i}`, tickers: [] }))).toBe(1);
      // Tickers: 999 across lists, then 20 tabs each following one more.
      const [first, second] = await lists.list("race");
      await lists.update("race", first!.id, { tickers: Array.from({ length: 500 }, (_, i) => `A${i}`) });
      await lists.update("race", second!.id, { tickers: Array.from({ length: 499 }, (_, i) => `B${i}`) });
      const all = await lists.list("race");
      expect(await settle(20, (i) => lists.update("race", all[2 + i]!.id, { add: [`C${i}`] }))).toBe(1);
      const total = (await lists.list("race")).reduce((n, l) => n + l.tickers.length, 0);
      expect(total).toBe(LIMITS.watchlistItemsPerUser);
    });

    it("push subscriptions", async () => {
      const alerts = new AlertStore(database.db);
      const sub = (i: number) => ({
        endpoint: `https://fcm.googleapis.com/fcm/send/race-${i}`,
        keys: { p256dh: "BAAA", auth: "CCC" },
      });
      for (let i = 0; i < LIMITS.pushSubscriptionsPerUser - 1; i++)
        await alerts.savePushSubscription("race", sub(i));
      expect(await settle(20, (i) => alerts.savePushSubscription("race", sub(100 + i)))).toBe(1);
      expect(await alerts.pushSubscriptionsOf("race")).toHaveLength(LIMITS.pushSubscriptionsPerUser);
    });

    it("a mute while sentences are being recorded: each sentence is not recorded, or recorded and marked read", async () => {
      // Several connections record and mute at once on PostgreSQL; a recording that read no mute yet must not
      // commit after the mute marked the call's alerts read (server/alerts/store.ts, MUTE_LOCK).
      const alerts = new AlertStore(database.db);
      const rule = await alerts.createRule("hush", { kind: "keyword", phrase: "tariff" });
      for (let round = 0; round < 5; round++) {
        const callId = `${round}`.padStart(24, "h");
        const record = (sequence: number) =>
          alerts.recordFirings([
            {
              userId: "hush",
              subject: callId,
              callId,
              symbol: "HUSH",
              sequence,
              startMs: sequence * 1000,
              text: "Tariffs again.",
              rules: [
                { ruleId: rule.id, kind: "keyword", label: "“tariff”", matched: ["Tariffs"], detail: null },
              ],
            },
          ]);
        await Promise.all([
          ...Array.from({ length: 20 }, (_, i) => record(i)),
          alerts.createMute("hush", { scope: "call", callId, symbol: "HUSH" }),
          ...Array.from({ length: 20 }, (_, i) => record(20 + i)),
        ]);
        const { data } = await alerts.listAlerts("hush", { limit: 100, callId });
        expect(data.filter((a) => !a.read)).toEqual([]);
        // After the mute is stored nothing more is recorded.
        expect(await record(99)).toEqual([]);
      }
    });
  });
}
