import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { searchQuerySchema, type SearchQuery } from "@/lib/schemas/search";
import { queryRows, type Database } from "@/server/db/database";
import { searchArchive } from "@/server/archive/search";
import { ArchiveStore } from "@/server/archive/store";
import { drivers } from "./drivers";
import { fixtureCall, fixtureId } from "./fixtures";

const query = (raw: Record<string, string>): SearchQuery => searchQuerySchema.parse(raw);

for (const driver of drivers()) {
  describe(`archive storage on ${driver.name}`, () => {
    beforeAll(() => driver.setup(), 60_000);
    afterAll(() => driver.teardown());

    describe("search", () => {
      let database: Database;
      beforeAll(async () => {
        ({ database } = await driver.open());
        const store = new ArchiveStore(database.db);
        await store.storeCall(
          fixtureCall({
            callId: fixtureId(1),
            symbol: "NWSC",
            startTime: "2026-07-20T21:00:00Z",
            remarks: [
              "Tariffs on imported components weighed on gross margin.",
              "Supply chain conditions improved.",
            ],
            question: "How much of the tariff impact will you pass on to customers?",
          }),
        );
        await store.storeCall(
          fixtureCall({
            callId: fixtureId(2),
            symbol: "HLBR",
            startTime: "2026-10-21T21:00:00Z",
            period: "Q4",
            remarks: ["The supply of skilled labor for our chain of stores remains tight."],
          }),
        );
        await store.storeCall(
          fixtureCall({
            callId: fixtureId(3),
            symbol: "HLBR",
            startTime: "2026-04-22T21:00:00Z",
            period: "Q2",
            remarks: ["Tariffs were not a factor for us this quarter."],
          }),
        );
      }, 60_000);

      it("finds a quoted phrase in the one call that says it, with the phrase marked in the sentence", async () => {
        const result = await searchArchive(database.db, query({ q: '"supply chain"' }));
        expect(result.calls.map((c) => c.callId)).toEqual([fixtureId(1)]);
        const hit = result.calls[0]!.hits[0]!;
        expect(hit.sequence).toBe(4);
        expect(hit.startMs).toBe(16_000);
        expect(hit.highlight).toEqual([
          { text: "Supply chain", isMatch: true },
          { text: " conditions improved.", isMatch: false },
        ]);
      });

      it("matches the words anywhere in a sentence without quotes, and stems (tariffs ~ tariff)", async () => {
        const words = await searchArchive(database.db, query({ q: "supply chain" }));
        expect(words.calls.map((c) => c.callId).sort()).toEqual([fixtureId(1), fixtureId(2)]);
        const stems = await searchArchive(database.db, query({ q: "tariff" }));
        expect(stems.totalCalls).toBe(2);
        expect(stems.calls.find((c) => c.callId === fixtureId(1))?.hitCount).toBe(2);
        expect(stems.totalHits).toBe(3);
      });

      it("excludes with -word and widens with OR", async () => {
        const excluded = await searchArchive(database.db, query({ q: "tariffs -margin" }));
        expect(
          excluded.calls.flatMap((c) => c.hits.map((h) => h.highlight.map((p) => p.text).join(""))),
        ).not.toContain("Tariffs on imported components weighed on gross margin.");
        const either = await searchArchive(database.db, query({ q: "skilled OR imported" }));
        expect(either.calls.map((c) => c.callId).sort()).toEqual([fixtureId(1), fixtureId(2)]);
      });

      it("filters by ticker, dates, speaker role and section, and counts facets by ticker and quarter", async () => {
        const all = await searchArchive(database.db, query({ q: "margins" }));
        expect(all.facets.tickers).toEqual([
          { value: "HLBR", calls: 2 },
          { value: "NWSC", calls: 1 },
        ]);
        expect(all.facets.quarters).toEqual([
          { value: "2026-Q4", calls: 1 },
          { value: "2026-Q3", calls: 1 },
          { value: "2026-Q2", calls: 1 },
        ]);
        const ticker = await searchArchive(database.db, query({ q: "margins", tickers: "nwsc" }));
        expect(ticker.calls.map((c) => c.symbol)).toEqual(["NWSC"]);
        const dated = await searchArchive(
          database.db,
          query({ q: "margins", from: "2026-07-20", to: "2026-10-20" }),
        );
        expect(dated.calls.map((c) => c.callId)).toEqual([fixtureId(1)]);
        const analysts = await searchArchive(database.db, query({ q: "tariff", speaker: "analyst" }));
        expect(analysts.calls.flatMap((c) => c.hits.map((h) => [h.role, h.section]))).toEqual([
          ["analyst", "qa"],
        ]);
        const prepared = await searchArchive(database.db, query({ q: "tariff", section: "prepared" }));
        expect(prepared.totalHits).toBe(2);
        const operator = await searchArchive(database.db, query({ q: "welcome", speaker: "operator" }));
        expect(operator.totalCalls).toBe(3);
      });

      it("answers odd input with an explanation, never an error", async () => {
        const stop = await searchArchive(database.db, query({ q: "the and of" }));
        expect(stop.calls).toEqual([]);
        expect(stop.notice).toMatch(/common words/);
        const unbalanced = await searchArchive(database.db, query({ q: '"supply chain' }));
        expect(unbalanced.calls.map((c) => c.callId)).toContain(fixtureId(1));
        const unknown = await searchArchive(database.db, query({ q: "margins", tickers: "ZZZZ" }));
        expect(unknown.calls).toEqual([]);
        expect(unknown.unknownTickers).toEqual(["ZZZZ"]);
        expect(unknown.notice).toMatch(/ZZZZ/);
        const partly = await searchArchive(database.db, query({ q: "margins", tickers: "ZZZZ,NWSC" }));
        expect(partly.calls.map((c) => c.symbol)).toEqual(["NWSC"]);
        const symbols = await searchArchive(database.db, query({ q: "&|!():*<->'\\" }));
        expect(symbols.calls).toEqual([]);
      });

      it("pages through calls", async () => {
        const first = await searchArchive(database.db, query({ q: "question" }));
        expect(first.totalCalls).toBe(3);
        const beyond = await searchArchive(database.db, query({ q: "question", page: "1" }));
        expect(beyond.calls).toEqual([]);
        expect(beyond.totalCalls).toBe(3);
      });
    });

    describe("storing calls", () => {
      it("stores a call once, upgrades it when enriched, and never downgrades it", async () => {
        const { database } = await driver.open();
        const store = new ArchiveStore(database.db);
        const completed = fixtureCall({
          callId: fixtureId(7),
          symbol: "NWSC",
          startTime: "2026-07-20T21:00:00Z",
          status: "completed",
        });
        expect(await store.storeCall(completed)).toBe("stored");
        expect(await store.storeCall(completed)).toBe("unchanged");
        const enriched = fixtureCall({
          callId: fixtureId(7),
          symbol: "NWSC",
          startTime: "2026-07-20T21:00:00Z",
        });
        expect(await store.storeCall(enriched)).toBe("stored");
        expect(await store.storeCall(completed)).toBe("unchanged");
        expect(await store.counts()).toEqual({ calls: 1, segments: enriched.segments.length });
        const [row] = await queryRows<{ speaker_name: string | null; n: number }>(
          database.db,
          sql`SELECT speaker_name, count(*)::int AS n FROM archive_segments WHERE sequence = 1 GROUP BY speaker_name`,
        );
        expect(row).toEqual({ speaker_name: "Dana Whitfield", n: 1 });
        expect((await store.known([fixtureId(7)])).get(fixtureId(7))?.status).toBe("enriched");
      });

      it("keeps the archive across a restart", async () => {
        const opened = await driver.open();
        const store = new ArchiveStore(opened.database.db);
        await store.storeCall(
          fixtureCall({ callId: fixtureId(8), symbol: "NWSC", startTime: "2026-07-20T21:00:00Z" }),
        );
        await store.writeState("backfill", { calls: 1 });
        if (driver.name === "pglite") await opened.database.close();
        const again = await opened.again();
        const reopened = new ArchiveStore(again.db);
        expect((await reopened.counts()).calls).toBe(1);
        expect(await reopened.readState("backfill")).toEqual({ calls: 1 });
        const result = await searchArchive(again.db, query({ q: "welcome" }));
        expect(result.calls.map((c) => c.callId)).toEqual([fixtureId(8)]);
      }, 60_000);
    });

    describe("advisory lock", () => {
      it("lets exactly one holder take the indexer's lock, and the next one after it is released", async () => {
        const opened = await driver.open();
        const first = await opened.database.tryAdvisoryLock(42);
        expect(first).not.toBeNull();
        const other = driver.name === "postgres" ? await opened.again() : opened.database;
        expect(await other.tryAdvisoryLock(42)).toBeNull();
        await first!.release();
        const second = await other.tryAdvisoryLock(42);
        expect(second).not.toBeNull();
        await second!.release();
      }, 60_000);
    });
  });
}
