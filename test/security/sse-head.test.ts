import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "@/server/config";
import type { Database } from "@/server/db/database";
import { MemoryBus } from "@/server/live/memory-bus";
import { createRuntime, installRuntime } from "@/server/runtime";
import { createWorkspace, type Workspace } from "@/server/workspace/create-workspace";
import { testDatabase } from "@/server/workspace/test-db";
import { setSecurityEnv } from "./helpers";

/**
 * Every route that streams (Server-Sent Events) answers HEAD with headers only. Next answers a HEAD with the GET
 * handler when a route exports no HEAD, which opened a stream nobody reads: each took one of the client's stream
 * slots (6 per address) for good, so six HEADs locked every user behind that address out of both streams (issue
 * 27, item 3). The walk finds the streaming routes by their source, so a new one cannot be forgotten.
 */

const API = join(process.cwd(), "app/api");

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return routeFiles(path);
    return name === "route.ts" ? [path] : [];
  });
}

const streaming = routeFiles(API).filter((file) =>
  /SSE_HEADERS|text\/event-stream|createSseStream/.test(readFileSync(file, "utf8")),
);

type Handler = (request: Request, context?: unknown) => Response | Promise<Response>;

let database: Database;
let workspace: Workspace;

beforeAll(async () => {
  setSecurityEnv({ CALLROOM_SSE_PER_CLIENT: "6", CALLROOM_RATE_LIMIT: "0" });
  database = await testDatabase();
  workspace = createWorkspace({
    database: { driver: "pglite", get: async () => database, close: async () => {} },
    live: new MemoryBus(),
    isLeader: () => true,
    upstream: null,
    log: { info() {}, warn() {}, error() {}, debug() {} } as never,
    config: readConfig({}).workspace,
  });
  installRuntime(createRuntime(readConfig({}), { workspace }));
}, 60_000);

afterAll(async () => {
  installRuntime(undefined);
  await workspace?.stop();
  await database?.close();
  setSecurityEnv({});
});

function request(path: string, method: string, client: string, signal?: AbortSignal): Request {
  return new Request(`http://localhost:3000${path}`, {
    method,
    headers: { host: "localhost:3000", "x-callroom-client": client, "x-callroom-user": "alice" },
    signal,
  });
}

describe("HEAD on every streaming route", () => {
  it("finds the streaming routes", () => {
    const names = streaming.map((f) => relative(API, f));
    expect(names).toContain("stream/route.ts");
    expect(names).toContain("alerts/stream/route.ts");
  });

  it.each(streaming.map((f) => [relative(API, f), f]))(
    "%s: HEAD answers headers only and holds no stream slot",
    async (name, file) => {
      const mod = (await import(file)) as { GET: Handler; HEAD?: Handler };
      // A query every streaming route accepts (the live stream needs a ticker or a call).
      const path = `/api/${name.replace(/\/?route\.ts$/, "")}?tickers=NWSC`;
      // What Next does: the route's HEAD, or its GET when it exports none.
      const head = mod.HEAD ?? mod.GET;
      const client = `10.0.0.${Math.floor(Math.random() * 250) + 1}`;
      for (let i = 0; i < 8; i++) {
        const response = await head(request(path, "HEAD", client));
        expect(response.status).toBe(200);
        expect(response.headers.get("content-type")).toContain("text/event-stream");
        expect(response.body, "a HEAD has no body").toBeNull();
      }
      // The client still gets its streams: the HEADs held none of its slots.
      const controller = new AbortController();
      const response = await mod.GET(request(path, "GET", client, controller.signal));
      expect(response.status).toBe(200);
      controller.abort();
      await response.body?.cancel().catch(() => {});
    },
  );
});
