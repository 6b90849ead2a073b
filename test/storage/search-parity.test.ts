/**
 * Search gives the same answer on both drivers, in the same order (hits, then start time, then call id), and every
 * facet promises exactly what its filter returns (issue 26 item 4; two processes on one folder once broke both).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { searchQuerySchema, type SearchResult } from "@/lib/schemas/search";
import { parseImportFile } from "@/server/archive/import/parse-file";
import { searchArchive } from "@/server/archive/search";
import { ArchiveStore } from "@/server/archive/store";
import { queryRows, type Database } from "@/server/db/database";
import { drivers } from "./drivers";
import { fixtureCall, fixtureId } from "./fixtures";
import { termDrift } from "./term-drift";
import { corpusTranscript } from "./transcript-files";

const QUERIES: Record<string, string>[] = [
  { q: "margin" },
  { q: "margins" },
  { q: '"pricing discipline"' },
  { q: "tariffs OR backlog" },
  { q: "margin -tariffs" },
  { q: "questions", speaker: "operator" },
  { q: "margin", tickers: "QFTR,NWSC" },
  { q: "margin", quarter: "2021-Q1" },
  { q: "margin", section: "qa" },
  { q: "margin", page: "1" },
];

async function fill(database: Database): Promise<void> {
  const store = new ArchiveStore(database.db);
  // Twelve calls with the same number of hits for "margin": the order falls to start time, then to the call id.
  for (let i = 1; i <= 12; i += 1) {
    await store.storeCall(
      fixtureCall({
        callId: fixtureId(i),
        symbol: i % 2 ? "NWSC" : "HLBR",
        // Pairs share a start time, so the call id decides between them.
        startTime: new Date(Date.UTC(2026, 0, 10 + Math.ceil(i / 2), 21)).toISOString(),
        remarks: i % 3 === 0 ? ["Tariffs weighed on margin."] : ["Backlog grew."],
      }),
    );
  }
  for (const name of ["QFTR_q1_2021.json", "QFTR_q2_2021.json", "BRIX_q1_2021.json"]) {
    const { call, origin } = parseImportFile(name, JSON.stringify(corpusTranscript()));
    await store.storeCall(call, origin);
  }
}

const results = new Map<string, SearchResult[]>();

for (const driver of drivers()) {
  describe(`search on ${driver.name}`, { timeout: 120_000 }, () => {
    let database: Database;
    beforeAll(async () => {
      await driver.setup();
      ({ database } = await driver.open());
      await fill(database);
    }, 120_000);
    afterAll(() => driver.teardown());

    it("orders calls by hits, then start time (newest first), then call id", async () => {
      const all: SearchResult[] = [];
      for (const raw of QUERIES) all.push(await searchArchive(database.db, searchQuerySchema.parse(raw)));
      results.set(driver.name, all);
      const first = all[0]!;
      for (let i = 1; i < first.calls.length; i += 1) {
        const [a, b] = [first.calls[i - 1]!, first.calls[i]!];
        const ordered =
          a.hitCount > b.hitCount ||
          (a.hitCount === b.hitCount && a.startTime > b.startTime) ||
          (a.hitCount === b.hitCount && a.startTime === b.startTime && a.callId < b.callId);
        expect(ordered, `${a.callId} before ${b.callId}`).toBe(true);
      }
    });

    it("promises in each facet exactly the calls its filter returns", async () => {
      const base = await searchArchive(database.db, searchQuerySchema.parse({ q: "margin" }));
      expect(base.facets.tickers.length).toBeGreaterThan(1);
      expect(base.facets.quarters.length).toBeGreaterThan(1);
      for (const facet of base.facets.tickers) {
        const filtered = await searchArchive(
          database.db,
          searchQuerySchema.parse({ q: "margin", tickers: facet.value }),
        );
        expect(filtered.totalCalls, `tickers=${facet.value}`).toBe(facet.calls);
      }
      for (const facet of base.facets.quarters) {
        const filtered = await searchArchive(
          database.db,
          searchQuerySchema.parse({ q: "margin", quarter: facet.value }),
        );
        expect(filtered.totalCalls, `quarter=${facet.value}`).toBe(facet.calls);
      }
      const calls = base.facets.tickers.reduce((n, f) => n + f.calls, 0);
      expect(calls).toBe(base.totalCalls);
    });

    it("counts a call's hits for words joined by OR as its sentences do (a sentence with two of the words once)", async () => {
      for (const raw of [
        { q: "margin" },
        { q: "tariffs OR margin" },
        { q: "tariffs OR margin OR backlog OR questions" },
        { q: "margin OR backlog", tickers: "NWSC" },
        { q: "margins OR demand", quarter: "2021-Q1" },
      ]) {
        const query = searchQuerySchema.parse(raw);
        const result = await searchArchive(database.db, query);
        const truth = await queryRows<{ call_id: string; hits: number }>(
          database.db,
          sql`SELECT call_id, count(*)::int AS hits FROM archive_segments
              WHERE search @@ websearch_to_tsquery('english', ${query.q})
                AND (${query.tickers?.[0] ?? null}::text IS NULL OR symbol = ${query.tickers?.[0] ?? null})
                AND (${query.quarter ?? null}::text IS NULL OR quarter = ${query.quarter ?? null})
              GROUP BY call_id`,
        );
        const hits = new Map(truth.map((t) => [t.call_id, t.hits]));
        expect(truth.length, raw.q).toBeGreaterThan(0);
        expect(result.totalCalls, raw.q).toBe(truth.length);
        expect(result.totalHits, raw.q).toBe(truth.reduce((n, t) => n + t.hits, 0));
        for (const call of result.calls)
          expect(call.hitCount, `${raw.q} ${call.callId}`).toBe(hits.get(call.callId));
      }
    });

    it("keeps each call's word counts equal to its sentences through every kind of write", async () => {
      const store = new ArchiveStore(database.db);
      const drift = () => termDrift(database);
      expect((await drift()).differences).toBe(0);
      // A call stored again with other words (its sentences deleted and written anew).
      await store.storeCall(
        fixtureCall({
          callId: fixtureId(3),
          symbol: "NWSC",
          startTime: new Date(Date.UTC(2026, 0, 12, 21)).toISOString(),
          status: "enriched",
          remarks: ["Freight costs eased.", "Freight volumes rose."],
          question: "How should we think about freight next year?",
        }),
      );
      // A live call, a sentence at a time, a replayed sentence among them.
      await store.startLiveCall({
        callId: fixtureId(40),
        symbol: "LIVE",
        name: "Live Corp.",
        startTime: new Date(Date.UTC(2026, 1, 1, 21)).toISOString(),
      });
      const live = (sequence: number, text: string) => ({
        callId: fixtureId(40),
        sequence,
        speaker: "SPEAKER_1",
        startMs: sequence * 1000,
        endMs: sequence * 1000 + 900,
        text,
        sentiment: null,
        role: "executive" as const,
        section: "prepared" as const,
      });
      await store.appendLiveSentences([live(0, "Freight margins widened.")]);
      await store.appendLiveSentences([live(0, "Freight margins widened."), live(1, "Margins held.")]);
      expect((await drift()).differences).toBe(0);
      const freight = await searchArchive(database.db, searchQuerySchema.parse({ q: "freight OR margin" }));
      expect(freight.calls.find((c) => c.callId === fixtureId(40))?.hitCount).toBe(2);
      // A sentence changed in place, and a call's sentences removed: no count is left behind.
      await database.db.execute(
        sql`UPDATE archive_segments SET text = 'Pricing held.' WHERE call_id = ${fixtureId(40)} AND sequence = 1`,
      );
      expect((await drift()).differences).toBe(0);
      await database.db.execute(sql`DELETE FROM archive_segments WHERE call_id = ${fixtureId(3)}`);
      const after = await drift();
      expect(after.differences).toBe(0);
      expect(after.rows).toBeGreaterThan(0);
      const [left] = await queryRows<{ n: number }>(
        database.db,
        sql`SELECT count(*)::int AS n FROM archive_call_terms WHERE call_id = ${fixtureId(3)}`,
      );
      expect(left!.n).toBe(0);
    });

    it("counts an import batch's words once at its end, and a batch that fails leaves nothing behind", async () => {
      const store = new ArchiveStore(database.db);
      const file = (name: string, remarks: string[]) =>
        parseImportFile(name, JSON.stringify(corpusTranscript({ remarks })));
      // New calls, and an imported call stored again from a changed file (its old counts must go).
      const batch = [
        file("QFTR_q3_2021.json", ["Hurricane repairs lifted freight revenue."]),
        file("QFTR_q1_2021.json", ["Hurricane season closed two plants."]),
        file("BRIX_q2_2021.json", []),
      ];
      expect(await store.storeCalls(batch)).toEqual(["stored", "stored", "stored"]);
      expect((await termDrift(database)).differences).toBe(0);
      const hurricane = await searchArchive(
        database.db,
        searchQuerySchema.parse({ q: "hurricane OR tariffs" }),
      );
      expect(hurricane.calls.map((c) => c.callId)).toEqual(
        expect.arrayContaining(["imp-qftr-q3-2021", "imp-qftr-q1-2021"]),
      );
      // The same files again change nothing.
      expect(await store.storeCalls(batch)).toEqual(["unchanged", "unchanged", "unchanged"]);

      // The second call of a batch fails (two sentences with one place): the whole batch rolls back.
      const broken = file("BRIX_q3_2021.json", []);
      broken.call.segments[1] = { ...broken.call.segments[1]!, sequence: broken.call.segments[0]!.sequence };
      await expect(
        store.storeCalls([file("BRIX_q4_2021.json", ["Hurricane costs."]), broken]),
      ).rejects.toThrow();
      expect([...(await store.known(["imp-brix-q4-2021", "imp-brix-q3-2021"])).keys()]).toEqual([]);
      expect((await termDrift(database)).differences).toBe(0);

      // The deferral ended with its transaction: the next ordinary write is counted by the triggers.
      await store.storeCall(
        fixtureCall({
          callId: fixtureId(41),
          symbol: "NWSC",
          startTime: new Date(Date.UTC(2026, 1, 2, 21)).toISOString(),
          remarks: ["Hurricane costs eased."],
        }),
      );
      expect((await termDrift(database)).differences).toBe(0);
      const [counted] = await queryRows<{ n: number }>(
        database.db,
        sql`SELECT count(*)::int AS n FROM archive_call_terms WHERE call_id = ${fixtureId(41)}`,
      );
      expect(counted!.n).toBeGreaterThan(0);
    });
  });
}

describe("both drivers", () => {
  it("give identical answers to every query", () => {
    const [pglite, postgres] = [results.get("pglite"), results.get("postgres")];
    if (!pglite || !postgres) return; // STORAGE_DRIVERS chose one driver: nothing to compare.
    expect(postgres).toEqual(pglite);
  });
});
