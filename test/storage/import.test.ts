/**
 * Imported calls (issue 25 item 1, issue 26): stored once per file, replaced when the file changed, read back in
 * order, searchable at once with a phrase and a ticker, listed newest first. On both drivers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchQuerySchema } from "@/lib/schemas/search";
import { parseImportFile } from "@/server/archive/import/parse-file";
import { listImportedCalls, readImportedCall } from "@/server/archive/read-calls";
import { searchArchive } from "@/server/archive/search";
import { ArchiveStore } from "@/server/archive/store";
import type { Database } from "@/server/db/database";
import { drivers } from "./drivers";
import { fixtureCall, fixtureId } from "./fixtures";
import { corpusTranscript } from "./transcript-files";

const file = (name: string, body = corpusTranscript()) => parseImportFile(name, JSON.stringify(body));

for (const driver of drivers()) {
  describe(`imported calls on ${driver.name}`, { timeout: 120_000 }, () => {
    let database: Database;
    let store: ArchiveStore;
    beforeAll(async () => {
      await driver.setup();
      ({ database } = await driver.open());
      store = new ArchiveStore(database.db);
      // A market-data call beside them: imported calls never mix into its lists.
      await store.storeCall(
        fixtureCall({ callId: fixtureId(1), symbol: "NWSC", startTime: "2026-07-20T21:00:00Z" }),
      );
    }, 120_000);
    afterAll(() => driver.teardown());

    it("stores a file once, and the same file again changes nothing", async () => {
      const first = file("QFTR_q1_2021.json");
      expect(await store.storeCall(first.call, first.origin)).toBe("stored");
      expect(await store.storeCall(first.call, first.origin)).toBe("unchanged");
      const again = file("/another/folder/QFTR_q1_2021.json");
      expect(await store.storeCall(again.call, again.origin)).toBe("unchanged");
    });

    it("reads it back as the file has it: symbol, sentences in order with increasing sequences, no audio", async () => {
      const { call: parsed } = file("QFTR_q1_2021.json");
      const call = await readImportedCall(database.db, "imp-qftr-q1-2021");
      expect(call).toMatchObject({
        symbol: "QFTR",
        period: "Q1",
        year: 2021,
        hasAudio: false,
        status: "completed",
      });
      expect(call!.segments.map((s) => s.text)).toEqual(parsed.segments.map((s) => s.text));
      const sequences = call!.segments.map((s) => s.sequence);
      expect(sequences.every((n, i) => i === 0 || n > sequences[i - 1]!)).toBe(true);
      expect(call!.participants.map((p) => p.name)).toContain("Ines Varga");
      // A market-data call is not served as an imported one.
      expect(await readImportedCall(database.db, fixtureId(1))).toBeNull();
    });

    it("finds it at once with a quoted phrase and its ticker, in the file's own part of the call", async () => {
      const result = await searchArchive(
        database.db,
        searchQuerySchema.parse({ q: '"pricing discipline"', tickers: "QFTR" }),
      );
      expect(result.calls.map((c) => c.callId)).toEqual(["imp-qftr-q1-2021"]);
      expect(result.calls[0]).toMatchObject({ quarter: "2021-Q1", hitCount: 2 });
      const sections = result.calls[0]!.hits.map((h) => h.section).sort();
      expect(sections).toEqual(["prepared", "qa"]);
      const analyst = await searchArchive(
        database.db,
        searchQuerySchema.parse({ q: "durable", speaker: "analyst", quarter: "2021-Q1" }),
      );
      expect(analyst.totalCalls).toBe(1);
    });

    it("replaces the call when its file changed, without a second copy", async () => {
      const changed = file("QFTR_q1_2021.json", corpusTranscript({ remarks: ["Backlog reached a record."] }));
      expect(await store.storeCall(changed.call, changed.origin)).toBe("stored");
      const call = await readImportedCall(database.db, "imp-qftr-q1-2021");
      expect(call!.segments.map((s) => s.text)).toContain("Backlog reached a record.");
      const listed = await listImportedCalls(database.db, { page: 0, pageSize: 10 });
      expect(listed.items.map((c) => c.callId)).toEqual(["imp-qftr-q1-2021"]);
    });

    it("lists imported calls newest first, by ticker and date, and counts them", async () => {
      const later = file("QFTR_q2_2021.json");
      const other = file("BRIX_q4_2020.json");
      await store.storeCall(later.call, later.origin);
      await store.storeCall(other.call, other.origin);
      const all = await listImportedCalls(database.db, { page: 0, pageSize: 2 });
      expect(all.total).toBe(3);
      expect(all.items.map((c) => c.callId)).toEqual(["imp-qftr-q2-2021", "imp-qftr-q1-2021"]);
      const brix = await listImportedCalls(database.db, { tickers: ["BRIX"], page: 0, pageSize: 10 });
      expect(brix.items.map((c) => c.callId)).toEqual(["imp-brix-q4-2020"]);
      const upTo = await listImportedCalls(database.db, { to: "2021-04-25", page: 0, pageSize: 10 });
      expect(upTo.items.map((c) => c.callId)).toEqual(["imp-qftr-q1-2021", "imp-brix-q4-2020"]);
    });
  });
}
