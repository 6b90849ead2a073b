import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchQuerySchema } from "@/lib/schemas/search";
import type { Database } from "../db/database";
import { notesMarkdown, NotesRepository } from "./notes";
import { testDatabase } from "./test-db";

let database: Database;
let repo: NotesRepository;
const CALL = "b".repeat(24);

beforeAll(async () => {
  database = await testDatabase();
  repo = new NotesRepository(database.db);
}, 60_000);
afterAll(() => database?.close());

describe("NotesRepository", () => {
  it("keeps a user's notes of a call in call order", async () => {
    await repo.create("ann", CALL, { text: "Ask about pricing", atMs: 95_000 });
    await repo.create("ann", CALL, {
      text: "",
      atMs: 12_500,
      sequence: 4,
      quote: "Tariffs cost us two points.",
    });
    await repo.create("bob", CALL, { text: "Not Ann's", atMs: 1_000 });
    const notes = await repo.list("ann", CALL);
    expect(notes.map((n) => [n.atMs, n.sequence, n.text])).toEqual([
      [12_500, 4, ""],
      [95_000, null, "Ask about pricing"],
    ]);
  });

  it("finds notes by their text and quotes, with stemming, for their owner only", async () => {
    const search = (user: string, q: string) => repo.search(user, searchQuerySchema.parse({ q }));
    const hits = await search("ann", "tariff");
    expect(hits.notes.map((h) => h.quote?.filter((p) => p.isMatch).map((p) => p.text))).toEqual([
      ["Tariffs"],
    ]);
    expect((await search("bob", "tariff")).notes).toEqual([]);
    expect((await search("ann", "pricing")).notes.map((h) => h.text.map((p) => p.text).join(""))).toEqual([
      "Ask about pricing",
    ]);
  });

  it("keeps control characters out of what it stores", async () => {
    const note = await repo.create("eve", CALL, { text: "a\u0000b\u0002c\nd", atMs: 0, quote: "q\u0003r" });
    expect([note.text, note.quote]).toEqual(["abc\nd", "qr"]);
  });

  it("deletes only the owner's note", async () => {
    const note = await repo.create("cat", CALL, { text: "temp", atMs: 0 });
    await expect(repo.remove("dan", CALL, note.id)).rejects.toMatchObject({ status: 404 });
    await repo.remove("cat", CALL, note.id);
    expect(await repo.list("cat", CALL)).toEqual([]);
  });
});

describe("notesMarkdown", () => {
  it("exports quotes and links to the moments", () => {
    const md = notesMarkdown(
      { callId: CALL, title: "Q3 2026 Northwind", symbol: "NWSC" },
      [
        {
          id: "1",
          callId: CALL,
          text: "Margin risk",
          atMs: 3_725_000,
          sequence: 40,
          quote: "Tariffs cost us.",
          createdAt: "",
        },
        {
          id: "2",
          callId: CALL,
          text: "Follow up",
          atMs: 61_000,
          sequence: null,
          quote: null,
          createdAt: "",
        },
      ],
      "https://callroom.example",
    );
    expect(md).toBe(
      [
        "# Notes: Q3 2026 Northwind",
        "",
        `NWSC · https://callroom.example/calls/${CALL}`,
        "",
        `## [1:02:05](https://callroom.example/calls/${CALL}?t=3725)`,
        "",
        "> Tariffs cost us.",
        "",
        "Margin risk",
        "",
        `## [01:01](https://callroom.example/calls/${CALL}?t=61)`,
        "",
        "Follow up",
        "",
      ].join("\n"),
    );
  });
});
