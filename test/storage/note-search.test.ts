import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchQuerySchema, type Highlight, type SearchQuery } from "@/lib/schemas/search";
import type { Database } from "@/server/db/database";
import { ArchiveStore } from "@/server/archive/store";
import { NotesRepository } from "@/server/workspace/notes";
import { drivers } from "./drivers";
import { fixtureCall, fixtureId } from "./fixtures";

const query = (raw: Record<string, string>): SearchQuery => searchQuerySchema.parse(raw);
const plain = (parts: Highlight | null) => (parts ?? []).map((p) => p.text).join("");
const marked = (parts: Highlight | null) => (parts ?? []).filter((p) => p.isMatch).map((p) => p.text);

const NOT_ARCHIVED = "z".repeat(24);

for (const driver of drivers()) {
  describe(`notes in the archive search on ${driver.name}`, () => {
    let database: Database;
    let notes: NotesRepository;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      await driver.setup();
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
        }),
      );
      await store.storeCall(
        fixtureCall({
          callId: fixtureId(2),
          symbol: "HLBR",
          startTime: "2026-04-22T21:00:00Z",
          period: "Q2",
          remarks: ["Demand held up."],
          question: "Is the tariff exposure material for you?",
        }),
      );
      notes = new NotesRepository(database.db);
      // Highlights the CFO's tariff sentence (prepared remarks, an executive).
      ids.margin = (
        await notes.create("ann", fixtureId(1), {
          text: "Margin pressure from tariffs: ask the CFO how much is passed on",
          atMs: 12_000,
          sequence: 3,
          quote: "Tariffs on imported components weighed on gross margin.",
        })
      ).id;
      // Pinned to 30 s into the HLBR call, while the analyst asks (Q&A), without highlighting a sentence.
      ids.exposure = (
        await notes.create("ann", fixtureId(2), { text: "Tariff exposure looks small", atMs: 30_000 })
      ).id;
      ids.memo = (await notes.create("ann", NOT_ARCHIVED, { text: "Tariff memo for the team", atMs: 0 })).id;
      ids.supply = (
        await notes.create("ann", fixtureId(1), {
          text: "",
          atMs: 16_000,
          sequence: 4,
          quote: "Supply chain conditions improved.",
        })
      ).id;
      await notes.create("bob", fixtureId(1), { text: "Tariffs: Bob's private view", atMs: 12_000 });
      const gone = await notes.create("ann", fixtureId(1), {
        text: "Tariff thought, deleted later",
        atMs: 1_000,
      });
      await notes.remove("ann", fixtureId(1), gone.id);
    }, 90_000);
    afterAll(() => driver.teardown());

    it("finds the user's notes by their words and by the sentence they quote, with the words marked", async () => {
      const result = await notes.search("ann", query({ q: "tariff" }));
      expect(result.totalNotes).toBe(3);
      expect(result.notes.map((n) => n.id).sort()).toEqual([ids.margin, ids.exposure, ids.memo].sort());
      const margin = result.notes.find((n) => n.id === ids.margin)!;
      expect(plain(margin.text)).toBe("Margin pressure from tariffs: ask the CFO how much is passed on");
      expect(marked(margin.text)).toEqual(["tariffs"]);
      expect(marked(margin.quote)).toEqual(["Tariffs"]);
      expect(margin).toMatchObject({ callId: fixtureId(1), atMs: 12_000, sequence: 3 });
      expect(margin.call).toMatchObject({ symbol: "NWSC", quarter: "2026-Q3", status: "enriched" });
      expect(result.notes.find((n) => n.id === ids.memo)!.call).toBeNull();

      const quoted = await notes.search("ann", query({ q: '"supply chain"' }));
      expect(quoted.notes.map((n) => n.id)).toEqual([ids.supply]);
      expect(quoted.notes[0]!.text).toEqual([]);
      expect(marked(quoted.notes[0]!.quote)).toEqual(["Supply chain"]);
    });

    it("never finds another user's note, nor a deleted one", async () => {
      const bob = await notes.search("bob", query({ q: "tariff" }));
      expect(bob.notes.map((n) => plain(n.text))).toEqual(["Tariffs: Bob's private view"]);
      expect((await notes.search("ann", query({ q: "private" }))).totalNotes).toBe(0);
      expect((await notes.search("ann", query({ q: "deleted" }))).totalNotes).toBe(0);
      expect((await notes.search("cat", query({ q: "tariff" }))).notes).toEqual([]);
    });

    it("applies web-search syntax: exclusions and OR", async () => {
      const excluded = await notes.search("ann", query({ q: "tariff -memo" }));
      expect(excluded.notes.map((n) => n.id).sort()).toEqual([ids.margin, ids.exposure].sort());
      const either = await notes.search("ann", query({ q: "memo OR exposure" }));
      expect(either.notes.map((n) => n.id).sort()).toEqual([ids.exposure, ids.memo].sort());
    });

    it("narrows by the call's ticker, dates and quarter, and by the note's sentence's speaker and part", async () => {
      const ids_ = async (raw: Record<string, string>) =>
        (await notes.search("ann", query({ q: "tariff", ...raw }))).notes.map((n) => n.id).sort();
      expect(await ids_({ tickers: "NWSC" })).toEqual([ids.margin]);
      expect(await ids_({ tickers: "HLBR,NWSC" })).toEqual([ids.margin, ids.exposure].sort());
      expect(await ids_({ quarter: "2026-Q2" })).toEqual([ids.exposure]);
      expect(await ids_({ from: "2026-07-20" })).toEqual([ids.margin]);
      expect(await ids_({ to: "2026-04-22" })).toEqual([ids.exposure]);
      expect(await ids_({ speaker: "executive" })).toEqual([ids.margin]);
      expect(await ids_({ speaker: "analyst" })).toEqual([ids.exposure]);
      expect(await ids_({ section: "qa" })).toEqual([ids.exposure]);
      expect(await ids_({ section: "prepared" })).toEqual([ids.margin]);
    });

    it("lists notes on the first page only, and counts them on every page", async () => {
      const second = await notes.search("ann", query({ q: "tariff", page: "1" }));
      expect(second).toEqual({ notes: [], totalNotes: 3 });
    });

    it("shows a long note as fragments around its matches", async () => {
      const filler = "Inventory levels and freight costs were discussed at some length. ".repeat(12);
      await notes.create("fay", fixtureId(1), {
        text: `${filler}Watch the buyback pace. ${filler}`,
        atMs: 0,
      });
      const [note] = (await notes.search("fay", query({ q: "buyback" }))).notes;
      expect(marked(note!.text)).toEqual(["buyback"]);
      expect(plain(note!.text).length).toBeLessThan(400);
    });

    it("answers a query of only common words with no note", async () => {
      await notes.create("ann", fixtureId(1), { text: "the and of", atMs: 0 });
      expect(await notes.search("ann", query({ q: "the and" }))).toEqual({ notes: [], totalNotes: 0 });
    });
  });
}
