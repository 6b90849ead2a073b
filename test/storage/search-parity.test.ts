/**
 * Search gives the same answer on both drivers, in the same order (hits, then start time, then call id), and every
 * facet promises exactly what its filter returns (issue 26 item 4; two processes on one folder once broke both).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchQuerySchema, type SearchResult } from "@/lib/schemas/search";
import { parseImportFile } from "@/server/archive/import/parse-file";
import { searchArchive } from "@/server/archive/search";
import { ArchiveStore } from "@/server/archive/store";
import type { Database } from "@/server/db/database";
import { drivers } from "./drivers";
import { fixtureCall, fixtureId } from "./fixtures";
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
  });
}

describe("both drivers", () => {
  it("give identical answers to every query", () => {
    const [pglite, postgres] = [results.get("pglite"), results.get("postgres")];
    if (!pglite || !postgres) return; // STORAGE_DRIVERS chose one driver: nothing to compare.
    expect(postgres).toEqual(pglite);
  });
});
