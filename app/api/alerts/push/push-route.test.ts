import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "@/server/config";
import type { Database } from "@/server/db/database";
import { MemoryBus } from "@/server/live/memory-bus";
import { createRuntime, installRuntime } from "@/server/runtime";
import { createWorkspace, type Workspace } from "@/server/workspace/create-workspace";
import { testDatabase } from "@/server/workspace/test-db";
import { POST } from "./route";

/**
 * `POST /api/alerts/push` (issue 27, item 1): one user registered 1,000 subscriptions and froze the server with one
 * rule. Now at most 20 per user, only on the browsers' push services (or CALLROOM_PUSH_ALLOWLIST's hosts), and an
 * endpoint another user holds is never taken over.
 */

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
    config: readConfig({ CALLROOM_PUSH_ALLOWLIST: "push.internal:8443" }).workspace,
  });
  installRuntime(createRuntime(readConfig({}), { workspace }));
}, 60_000);
afterAll(async () => {
  installRuntime(undefined);
  await workspace?.stop();
  await database?.close();
});

const subscribe = (user: string, endpoint: string) =>
  POST(
    new Request("http://localhost:3000/api/alerts/push", {
      method: "POST",
      headers: {
        host: "localhost:3000",
        origin: "http://localhost:3000",
        "content-type": "application/json",
        "x-callroom-user": user,
      },
      body: JSON.stringify({ endpoint, keys: { p256dh: "BAAA", auth: "CCC" } }),
    }),
  );
const errorOf = async (r: Response) =>
  ((await r.json()) as { error: { code: string; message: string } }).error;

describe("POST /api/alerts/push", () => {
  it("takes 20 subscriptions per user; the 21st is a 409 that says why", async () => {
    for (let i = 0; i < 20; i++)
      expect((await subscribe("many", `https://fcm.googleapis.com/fcm/send/many-${i}`)).status).toBe(201);
    const refused = await subscribe("many", "https://fcm.googleapis.com/fcm/send/many-20");
    expect(refused.status).toBe(409);
    expect((await errorOf(refused)).message).toContain("at most 20 push subscriptions");
    expect(await (await workspace.repositories()).alerts.pushSubscriptionsOf("many")).toHaveLength(20);
  });

  it("refuses endpoints beyond the browsers' push services, unless CALLROOM_PUSH_ALLOWLIST names the host", async () => {
    for (const endpoint of ["https://push.example.com/1", "https://hooks.slack.com/services/T/B/X"]) {
      const refused = await subscribe("pat", endpoint);
      expect(refused.status, endpoint).toBe(400);
      expect((await errorOf(refused)).message).toContain("push service");
    }
    for (const endpoint of [
      "https://updates.push.services.mozilla.com/wpush/v2/pat",
      "https://web.push.apple.com/pat",
      "https://wns2-par02p.notify.windows.com/w/?token=pat",
      "https://push.internal:8443/pat",
    ])
      expect((await subscribe("pat", endpoint)).status, endpoint).toBe(201);
  });

  it("never lets another user take over a subscription", async () => {
    const endpoint = "https://fcm.googleapis.com/fcm/send/owned-by-ann";
    expect((await subscribe("ann", endpoint)).status).toBe(201);
    const taken = await subscribe("mallory", endpoint);
    expect(taken.status).toBe(409);
    const { alerts } = await workspace.repositories();
    expect(await alerts.pushSubscriptionsOf("ann")).toHaveLength(1);
    expect(await alerts.pushSubscriptionsOf("mallory")).toHaveLength(0);
  });
});
