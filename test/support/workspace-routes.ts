import { afterAll, beforeAll } from "vitest";
import type { Database } from "@/server/db/database";
import { MemoryBus } from "@/server/live/memory-bus";
import { readConfig } from "@/server/config";
import { createRuntime, installRuntime } from "@/server/runtime";
import { createWorkspace, type Workspace } from "@/server/workspace/create-workspace";
import { testDatabase } from "@/server/workspace/test-db";

/**
 * The workspace API's route tests (app/api/alert-rules/workspace-routes.test.ts, app/api/alerts/inbox-routes.test.ts):
 * one workspace over an in-memory database, installed as the runtime, and requests as a signed-in user sends them.
 */

export const ORIGIN = "http://localhost:3000";
/** A call the live bus knows (a note on a call nobody knows is a 404). */
export const CALL = "d".repeat(24);

/** Registers the file's set-up and tear-down; `workspace()` is the installed workspace once `beforeAll` ran. */
export function setUpTestWorkspace(): { workspace: () => Workspace } {
  let database: Database;
  let workspace: Workspace;
  beforeAll(async () => {
    database = await testDatabase();
    workspace = createWorkspace({
      database: { driver: "pglite", get: async () => database, close: async () => {} },
      live: new MemoryBus(),
      isLeader: () => true,
      upstream: null,
      log: { info() {}, warn() {}, error() {}, debug() {} } as never,
      config: readConfig({ CALLROOM_WEBHOOK_ALLOWLIST: "hooks.internal:8443" }).workspace,
    });
    // The notes' call exists (a note on a call nobody knows is a 404): the live bus carries it.
    const bus = new MemoryBus();
    bus.publish({
      event: "call.started",
      symbol: "NWSC",
      data: { callId: CALL, symbol: "NWSC", name: "Northwind", startTime: "2026-11-24T12:00:00.000Z" },
    });
    installRuntime(createRuntime(readConfig({}), { workspace, bus }));
  }, 60_000);
  afterAll(async () => {
    installRuntime(undefined);
    await workspace?.stop();
    await database?.close();
  });
  return { workspace: () => workspace };
}

export function req(
  path: string,
  init: { method?: string; body?: unknown; user?: string; origin?: string | null; site?: string } = {},
) {
  const headers = new Headers({ host: "localhost:3000" });
  if (init.body !== undefined) headers.set("content-type", "application/json");
  if (init.user) headers.set("x-callroom-user", init.user);
  if (init.origin !== null) headers.set("origin", init.origin ?? ORIGIN);
  if (init.site) headers.set("sec-fetch-site", init.site);
  return new Request(`${ORIGIN}${path}`, {
    method: init.method ?? "GET",
    headers,
    body:
      init.body === undefined
        ? undefined
        : typeof init.body === "string"
          ? init.body
          : JSON.stringify(init.body),
  });
}
export const params = <T extends Record<string, string>>(p: T) => ({ params: Promise.resolve(p) });
export const body = async (r: Response) =>
  (await r.json()) as { data?: unknown; error?: { code: string; message: string } };
