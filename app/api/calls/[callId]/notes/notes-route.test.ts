import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "@/server/config";
import type { Database } from "@/server/db/database";
import { MemoryBus } from "@/server/live/memory-bus";
import { clearUpstreamEnv, setUpstreamEnv } from "@/test/support/upstream-env";
import { json, noDataBody, startFakeUpstream, type FakeUpstream } from "@/test/support/fake-upstream";
import { createWorkspace, type Workspace } from "@/server/workspace/create-workspace";
import { testDatabase } from "@/server/workspace/test-db";
import { GET, POST } from "./route";

/**
 * Notes and the calls they belong to (issues 26 item 5 and 27 item 8): a note only on a call that exists (404
 * otherwise), at most CALLROOM_NOTES_PER_USER notes per user across all calls, and a Markdown export that shows a
 * note's text as text.
 */

const KNOWN = "a".repeat(24);
const SECOND = "b".repeat(24);
const UNKNOWN = "f".repeat(24);

const upstreamCall = (id: string) => ({
  call_id: id,
  call_title: "Q3 2026 Northwind Semiconductor (NWSC) Earnings Conference Call",
  symbol: "NWSC",
  name: "Northwind Semiconductor",
  exchange: "NASDAQ",
  period: "Q3",
  year: 2026,
  start_time: "2026-10-20T20:30:00Z",
  end_time: null,
  duration: 60,
  status: "COMPLETED",
  created_at: "2026-10-20T20:30:00Z",
  updated_at: "2026-10-20T20:30:00Z",
  transcripts: [],
});

let fake: FakeUpstream;
let database: Database;
let workspace: Workspace;
let failing = false;

beforeAll(async () => {
  fake = await startFakeUpstream();
  fake.handler = (_req, res, url) => {
    if (failing) return json(res, 500, { ok: false });
    for (const id of [KNOWN, SECOND])
      if (url.pathname === `/api/v1/transcripts/calls/${id}`) return json(res, 200, upstreamCall(id));
    json(res, 404, noDataBody);
  };
  database = await testDatabase();
  workspace = createWorkspace({
    database: { driver: "pglite", get: async () => database, close: async () => {} },
    live: new MemoryBus(),
    isLeader: () => true,
    upstream: null,
    log: { info() {}, warn() {}, error() {}, debug() {} } as never,
    config: readConfig({ CALLROOM_NOTES_PER_USER: "3" }).workspace,
  });
  setUpstreamEnv({ UPSTREAM_BASE_URL: fake.url, UPSTREAM_API_KEY: "k" }, { workspace });
}, 60_000);
afterAll(async () => {
  clearUpstreamEnv();
  await workspace?.stop();
  await database?.close();
  await fake?.close();
});

const post = (user: string, callId: string, body: unknown) =>
  POST(
    new Request(`http://localhost:3000/api/calls/${callId}/notes`, {
      method: "POST",
      headers: {
        host: "localhost:3000",
        origin: "http://localhost:3000",
        "content-type": "application/json",
        "x-callroom-user": user,
      },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ callId }) },
  );

describe("POST /api/calls/{callId}/notes", () => {
  it("answers 404 for a call that does not exist, and saves nothing", async () => {
    const response = await post("ann", UNKNOWN, { text: "orphan", atMs: 0 });
    expect(response.status).toBe(404);
    expect(await (await workspace.repositories()).notes.list("ann", UNKNOWN)).toEqual([]);
    expect((await post("ann", KNOWN, { text: "fine", atMs: 0 })).status).toBe(201);
  });

  it("answers 503, not a note on a call nobody can vouch for, while the upstream fails", async () => {
    failing = true;
    try {
      const response = await post("ann", "e".repeat(24), { text: "maybe", atMs: 0 });
      expect(response.status).toBe(503);
    } finally {
      failing = false;
    }
  });

  it("keeps at most CALLROOM_NOTES_PER_USER notes per user, all calls together", async () => {
    expect((await post("cap", KNOWN, { text: "1", atMs: 0 })).status).toBe(201);
    expect((await post("cap", SECOND, { text: "2", atMs: 0 })).status).toBe(201);
    expect((await post("cap", KNOWN, { text: "3", atMs: 0 })).status).toBe(201);
    const refused = await post("cap", SECOND, { text: "4", atMs: 0 });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(
      "at most 3 notes per user",
    );
    // Another user is not affected.
    expect((await post("other", SECOND, { text: "mine", atMs: 0 })).status).toBe(201);
  });

  it("exports a note's text as text: no link, image, HTML or heading in the Markdown", async () => {
    const text =
      "[click](https://evil.example) ![x](https://evil.example/p.png) <img src=x onerror=alert(1)>\n# Pwned";
    expect((await post("md", KNOWN, { text, atMs: 1_000 })).status).toBe(201);
    const response = await GET(
      new Request(`http://localhost:3000/api/calls/${KNOWN}/notes?format=md`, {
        headers: { host: "localhost:3000", "x-callroom-user": "md" },
      }),
      { params: Promise.resolve({ callId: KNOWN }) },
    );
    const md = await response.text();
    // Each mark that would make a link, image or tag has a backslash before it.
    expect(md).not.toMatch(/(^|[^\\])\[click\]/m);
    expect(md).not.toMatch(/(^|[^\\])!\[x/m);
    expect(md).not.toMatch(/(^|[^\\])<img/m);
    expect(md).not.toMatch(/^# Pwned/m);
    expect(md).toContain("\\[click\\](https://evil.example)");
    expect(md).toContain("\\# Pwned");
  });
});
