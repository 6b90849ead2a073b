import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchResponseSchema } from "@/lib/schemas/search";
import { ArchiveStore } from "@/server/archive/store";
import { readConfig } from "@/server/config";
import { createRuntime, installRuntime, type Runtime } from "@/server/runtime";
import { fixtureCall, fixtureId } from "@/test/storage/fixtures";
import { GET } from "./route";

let runtime: Runtime;

beforeAll(async () => {
  // The archive in memory: the route reads it through the runtime, as in production.
  runtime = createRuntime(readConfig({ CALLROOM_DATA_DIR: "memory://" }));
  installRuntime(runtime);
  const store = new ArchiveStore((await runtime.database.get()).db);
  await store.storeCall(
    fixtureCall({
      callId: fixtureId(1),
      symbol: "NWSC",
      startTime: "2026-07-20T21:00:00Z",
      remarks: ["Tariffs on imported components weighed on gross margin."],
    }),
  );
}, 60_000);

afterAll(async () => {
  await runtime.database.close();
  installRuntime(undefined);
});

async function search(query: string, user?: string) {
  const headers: Record<string, string> = user ? { "x-callroom-user": user } : {};
  const response = await GET(new Request(`http://localhost/api/search?${query}`, { headers }));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function errorOf(body: Record<string, unknown>) {
  return body.error as { code: string; message: string };
}

describe("GET /api/search", () => {
  it("answers a phrase with the call, its marked sentence and the facets", async () => {
    const { status, body } = await search(`q=${encodeURIComponent('"gross margin"')}`);
    expect(status).toBe(200);
    const parsed = searchResponseSchema.parse(body);
    expect(parsed.data.calls).toHaveLength(1);
    expect(parsed.data.calls[0]).toMatchObject({
      callId: fixtureId(1),
      symbol: "NWSC",
      quarter: "2026-Q3",
      hitCount: 1,
    });
    expect(parsed.data.calls[0]!.hits[0]!.highlight.filter((p) => p.isMatch).map((p) => p.text)).toEqual([
      "gross margin",
    ]);
    expect(parsed.data.facets.tickers).toEqual([{ value: "NWSC", calls: 1 }]);
  });

  it("refuses an empty query and a 2 kB one with a sentence saying why", async () => {
    for (const query of ["", "q=", "q=%20%20", `q=${"tariff ".repeat(300)}`]) {
      const { status, body } = await search(query);
      expect(status).toBe(400);
      expect(errorOf(body).code).toBe("invalid_parameter");
      expect(errorOf(body).message).toMatch(/^q (is required|is too long)/);
    }
  });

  it("refuses a query of more alternatives than the OR cap, counting OR in any case and never inside quotes", async () => {
    const nine = Array.from({ length: 9 }, (_, i) => `word${i}`).join(" OR ");
    const refused = await search(`q=${encodeURIComponent(nine)}`);
    expect(refused.status).toBe(400);
    expect(errorOf(refused.body).message).toMatch(/too many alternatives with OR \(at most 8\)/);
    const mixedCase = Array.from({ length: 9 }, (_, i) => `word${i}`).join(" or ");
    expect((await search(`q=${encodeURIComponent(mixedCase)}`)).status).toBe(400);
    const eight = Array.from({ length: 8 }, (_, i) => `word${i}`).join(" OR ");
    expect((await search(`q=${encodeURIComponent(eight)}`)).status).toBe(200);
    const quoted = `"${Array.from({ length: 12 }, () => "this or that").join(" ")}"`;
    expect((await search(`q=${encodeURIComponent(quoted)}`)).status).toBe(200);
  });

  it("refuses malformed filters", async () => {
    const cases: [string, RegExp][] = [
      ["q=margin&tickers=%24%24%24", /tickers/],
      ["q=margin&speaker=ceo", /speaker must be one of executive, analyst, operator/],
      ["q=margin&section=intro", /section must be one of prepared, qa/],
      ["q=margin&from=2026-13-01", /from must be a date/],
      ["q=margin&from=2026-08-01&to=2026-07-01", /from must be on or before to/],
      ["q=margin&page=-1", /page/],
      ["q=margin&quarter=Q3", /quarter must look like 2026-Q3/],
    ];
    for (const [query, message] of cases) {
      const { status, body } = await search(query);
      expect(status, query).toBe(400);
      expect(errorOf(body).message, query).toMatch(message);
    }
  });

  it("explains an empty answer for unbalanced quotes, stop words and an unknown ticker instead of failing", async () => {
    const unbalanced = searchResponseSchema.parse(
      (await search(`q=${encodeURIComponent('"gross margin')}`)).body,
    );
    expect(unbalanced.data.calls).toHaveLength(1);
    const stop = searchResponseSchema.parse((await search("q=the%20and%20of")).body);
    expect(stop.data.calls).toEqual([]);
    expect(stop.data.notice).toMatch(/common words/);
    const unknown = searchResponseSchema.parse((await search("q=margin&tickers=ZZZZ")).body);
    expect(unknown.data.unknownTickers).toEqual(["ZZZZ"]);
    expect(unknown.data.notice).toMatch(/no call from ZZZZ/);
    const operators = await search(`q=${encodeURIComponent("!!! & | <-> :* ( ) '")}`);
    expect(operators.status).toBe(200);
  });

  it("answers the requesting user's matching notes beside the calls, and no one else's", async () => {
    const { notes } = await runtime.workspace.repositories();
    await notes.create("ann", fixtureId(1), {
      text: "Check the components tariff pass-through",
      atMs: 4_000,
      sequence: 3,
      quote: "Tariffs on imported components weighed on gross margin.",
    });
    const ann = searchResponseSchema.parse((await search("q=components", "ann")).body);
    expect(ann.data.calls.map((c) => c.callId)).toEqual([fixtureId(1)]);
    expect(ann.data.totalNotes).toBe(1);
    expect(ann.data.notes[0]).toMatchObject({ callId: fixtureId(1), atMs: 4_000, sequence: 3 });
    expect(ann.data.notes[0]!.call?.symbol).toBe("NWSC");
    expect(ann.data.notes[0]!.text.filter((p) => p.isMatch).map((p) => p.text)).toEqual(["components"]);
    const bob = searchResponseSchema.parse((await search("q=components", "bob")).body);
    expect(bob.data.calls).toHaveLength(1);
    expect(bob.data).toMatchObject({ notes: [], totalNotes: 0 });
  });
});
