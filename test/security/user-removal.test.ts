import { spawnSync } from "node:child_process";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "@/server/config";
import { GET as feedGet } from "@/app/api/feeds/[token]/route";
import { POST as feedPost } from "@/app/api/feeds/route";
import { GET as listRules, POST as createRule } from "@/app/api/alert-rules/route";
import { GET as alertsStream } from "@/app/api/alerts/stream/route";
import { GET as liveStreamRoute } from "@/app/api/stream/route";
import { GET as listWatchlists, POST as createWatchlist } from "@/app/api/watchlists/route";
import { proxy } from "@/proxy";
import { SESSION_COOKIE } from "@/server/auth/session";
import { UsersFile } from "@/server/auth/users";
import { getRuntime } from "@/server/runtime";
import type { Database } from "@/server/db/database";
import { MemoryBus } from "@/server/live/memory-bus";
import { clearUpstreamEnv, setUpstreamEnv } from "@/test/support/upstream-env";
import { json, startFakeUpstream, type FakeUpstream } from "@/test/support/fake-upstream";
import { createWorkspace, type Workspace } from "@/server/workspace/create-workspace";
import { testDatabase } from "@/server/workspace/test-db";
import { emptyUsersPath, sealSession, SECRET, setSecurityEnv } from "./helpers";

/**
 * Removing a user removes their reach (issue 27, item 4): with the app running, `npm run user -- remove NAME` makes
 * the user's feed URL answer 404 within 10 s and stops their webhooks within 5 s, no restart; their push
 * subscriptions are revoked and rules disabled; the same name added again (or a user named `local`) starts empty,
 * and the old feed URL and the old session stay dead. The user's open streams (the live stream, at its door and at
 * its route, and the alerts stream) end within 10 s, while another user's stay open.
 */

const CALL = "c".repeat(24);
let usersFile: string;
let fake: FakeUpstream;
let database: Database;
let workspace: Workspace;
let bus: MemoryBus;
let target: Server;
let targetPort: number;
const openSockets = new Set<Socket>();
let received = 0;
/** The custom server's stand-in: offers each request to the runtime's door (the live stream's, ahead of Next). */
let app: Server;
let appBase: string;

const user = (command: "add" | "remove", name: string) => {
  const run = spawnSync(process.execPath, ["scripts/user.mjs", command, name], {
    input: "correct horse battery\n",
    env: { ...process.env, CALLROOM_USERS_FILE: usersFile },
    encoding: "utf8",
  });
  expect(run.status, run.stderr).toBe(0);
};

/** Signs in as the server would once it has re-read the users file (it does within a second). */
const signIn = async (name: string) => {
  await new Promise((r) => setTimeout(r, 1_100));
  return sealSession(name);
};

const waitFor = async (check: () => boolean | Promise<boolean>, ms: number): Promise<number> => {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return Date.now() - started;
};

beforeAll(async () => {
  usersFile = emptyUsersPath();
  setSecurityEnv({
    CALLROOM_USERS_FILE: usersFile,
    CALLROOM_SESSION_SECRET: SECRET,
    CALLROOM_RATE_LIMIT: "0",
  });
  // A webhook receiver that never answers: every delivery to it stays open until someone cuts it.
  target = createServer((req) => {
    req.resume();
    req.on("end", () => (received += 1));
  });
  target.on("connection", (socket) => {
    openSockets.add(socket);
    socket.on("close", () => openSockets.delete(socket));
  });
  await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
  targetPort = (target.address() as AddressInfo).port;
  fake = await startFakeUpstream();
  fake.handler = (_req, res) => json(res, 200, { earnings: [] });
  database = await testDatabase();
  bus = new MemoryBus();
  workspace = createWorkspace({
    database: { driver: "pglite", get: async () => database, close: async () => {} },
    live: bus,
    isLeader: () => true,
    upstream: null,
    log: { info() {}, warn() {}, error() {}, debug() {} } as never,
    config: readConfig({ CALLROOM_WEBHOOK_ALLOWLIST: `127.0.0.1:${targetPort}` }).workspace,
    users: { current: () => getRuntime().auth.state().users },
  });
  setUpstreamEnv({ UPSTREAM_BASE_URL: fake.url, UPSTREAM_API_KEY: "k" }, { workspace, bus });
  workspace.start();
  app = createServer((req, res) => {
    if (!getRuntime().door(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((r) => app.listen(0, "127.0.0.1", r));
  appBase = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  for (const stream of streams) stream.stop();
  app?.closeAllConnections();
  await new Promise((r) => app?.close(r));
  clearUpstreamEnv();
  await workspace?.stop();
  await database?.close();
  await fake?.close();
  target?.closeAllConnections();
  await new Promise((r) => target?.close(r));
  setSecurityEnv({});
});

/** A request as the proxy lets it through: the session decides who the user is. */
async function asUser(cookie: string, path: string, init: { method?: string; body?: unknown } = {}) {
  const headers = new Headers({ host: "localhost:3000", cookie: `${SESSION_COOKIE}=${cookie}` });
  if (init.body !== undefined) headers.set("content-type", "application/json");
  if (init.method && init.method !== "GET") headers.set("origin", "http://localhost:3000");
  const verdict = await proxy(
    new NextRequest(`http://localhost:3000${path}`, { method: init.method ?? "GET", headers }),
  );
  if (verdict.headers.get("x-middleware-next") !== "1") return { refused: verdict.status, request: null };
  headers.set("x-callroom-user", verdict.headers.get("x-middleware-request-x-callroom-user") ?? "");
  const request = new Request(`http://localhost:3000${path}`, {
    method: init.method ?? "GET",
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { refused: null, request };
}

async function call<T>(
  handler: (r: Request) => Promise<Response>,
  cookie: string,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; data: T }> {
  const { refused, request } = await asUser(cookie, path, init);
  if (refused) return { status: refused, data: null as T };
  const response = await handler(request!);
  return { status: response.status, data: ((await response.json()) as { data: T }).data };
}

const feed = (url: string) => {
  const token = new URL(url).pathname.split("/").pop()!;
  return feedGet(new Request(url), { params: Promise.resolve({ token }) });
};

/** An open stream, read as it arrives; `ended` turns true when the server ends its body. */
interface OpenStream {
  ended: boolean;
  text: string;
  stop(): void;
}
const streams: OpenStream[] = [];

/** A stream served by a route handler (the alerts stream; the live stream when Next serves it). */
async function routeStream(handler: (r: Request) => Promise<Response>, cookie: string, path: string) {
  const { refused, request } = await asUser(cookie, path);
  expect(refused).toBeNull();
  const controller = new AbortController();
  const response = await handler(new Request(request!, { signal: controller.signal }));
  expect(response.status).toBe(200);
  const stream: OpenStream = { ended: false, text: "", stop: () => controller.abort() };
  const reader = response.body!.getReader();
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done || !value) break;
      stream.text += Buffer.from(value).toString("utf8");
    }
    stream.ended = true;
  })();
  streams.push(stream);
  await waitFor(() => stream.text.startsWith("retry:"), 5_000);
  return stream;
}

/** The live stream at its door, over a real socket, as the custom server serves it. */
async function doorStream(cookie: string): Promise<OpenStream> {
  const stream: OpenStream = { ended: false, text: "", stop: () => {} };
  await new Promise<void>((resolve, reject) => {
    const req = httpRequest(`${appBase}/api/stream?tickers=NWSC`, {
      headers: { cookie: `${SESSION_COOKIE}=${cookie}` },
    });
    stream.stop = () => req.destroy();
    req.on("error", () => (stream.ended = true));
    req.on("response", (res) => {
      if (res.statusCode !== 200) return reject(new Error(`door answered ${res.statusCode}`));
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (stream.text += chunk));
      res.on("end", () => (stream.ended = true));
      res.on("close", () => (stream.ended = true));
      resolve();
    });
    req.end();
  });
  streams.push(stream);
  await waitFor(() => stream.text.startsWith("retry:"), 5_000);
  return stream;
}

const sentence = (sequence: number) =>
  bus.publish({
    event: "sentence",
    symbol: "NWSC",
    data: {
      callId: CALL,
      sequence,
      text: "the quarter was strong",
      speaker: "SPEAKER_1",
      startMs: sequence * 1000,
      endMs: sequence * 1000 + 900,
      confidence: 0.9,
      sentiment: null,
    } as never,
  });

describe("removing a user with the app running", () => {
  let feedUrl: string;
  let aliceCookie: string;
  let aliceKey: string;
  let aliceStreams: OpenStream[];
  let bobStreams: OpenStream[];
  let removedAt: number;

  it("starts with alice's feed, watchlist, webhook rule and push subscription in place", async () => {
    user("add", "alice");
    user("add", "bob");
    aliceCookie = await signIn("alice");
    expect(
      (
        await call(createWatchlist, aliceCookie, "/api/watchlists", {
          method: "POST",
          body: { name: "Semis", tickers: ["NWSC"] },
        })
      ).status,
    ).toBe(201);
    const rule = await call(createRule, aliceCookie, "/api/alert-rules", {
      method: "POST",
      body: { kind: "keyword", phrase: "the", webhookUrl: `http://127.0.0.1:${targetPort}/hook` },
    });
    expect(rule.status).toBe(201);
    const issued = await call<{ url: string }>(feedPost, aliceCookie, "/api/feeds", { method: "POST" });
    expect(issued.status).toBe(201);
    feedUrl = issued.data.url;
    expect((await feed(feedUrl)).status).toBe(200);
    aliceKey = new UsersFile(usersFile).read().get("alice")!.key;
    await (
      await workspace.repositories()
    ).alerts.savePushSubscription(aliceKey, {
      endpoint: "https://fcm.googleapis.com/fcm/send/alice",
      keys: { p256dh: "BAAA", auth: "CCC" },
    });
    await workspace.service.reload();
    for (let i = 0; i < 3; i++) sentence(i);
    await waitFor(() => received >= 3 && openSockets.size >= 3, 5_000);
    const bobCookie = await sealSession("bob");
    aliceStreams = [
      await doorStream(aliceCookie),
      await routeStream(liveStreamRoute, aliceCookie, "/api/stream?tickers=NWSC"),
      await routeStream(alertsStream, aliceCookie, "/api/alerts/stream"),
    ];
    bobStreams = [
      await doorStream(bobCookie),
      await routeStream(alertsStream, bobCookie, "/api/alerts/stream"),
    ];
    expect(getRuntime().userStreams.size()).toBe(5);
  });

  it("`npm run user -- remove alice`: the webhooks stop within 5 s and the feed answers 404 within 10 s", async () => {
    const removed = Date.now();
    removedAt = removed;
    user("remove", "alice");
    await waitFor(() => openSockets.size === 0, 5_000);
    const cut = Date.now() - removed;
    await waitFor(async () => (await feed(feedUrl)).status === 404, 10_000 - cut);
    // Nothing more goes out for her rule, and nothing of hers is left to push to.
    const before = received;
    for (let i = 3; i < 6; i++) sentence(i);
    await new Promise((r) => setTimeout(r, 500));
    expect(received).toBe(before);
    expect(await (await workspace.repositories()).alerts.pushSubscriptionsOf(aliceKey)).toEqual([]);
    // Her session is over too.
    expect((await asUser(aliceCookie, "/api/watchlists")).refused).toBe(401);
  });

  it("ends the removed user's open streams within 10 s; another user's stay open", async () => {
    // Removed in the test above (a moment ago): her streams were open when the users file changed.
    await waitFor(() => aliceStreams.every((s) => s.ended), 10_000 - (Date.now() - removedAt));
    expect(bobStreams.map((s) => s.ended)).toEqual([false, false]);
    expect(getRuntime().userStreams.size()).toBe(2);
    // Bob's live stream still delivers.
    sentence(10);
    await waitFor(() => bobStreams[0]!.text.includes("event: sentence"), 5_000);
  });

  it("the same name added again starts empty; the old feed URL and session stay dead", async () => {
    user("add", "alice");
    const fresh = await signIn("alice");
    expect((await call<unknown[]>(listWatchlists, fresh, "/api/watchlists")).data).toEqual([]);
    expect((await call<unknown[]>(listRules, fresh, "/api/alert-rules")).data).toEqual([]);
    expect((await feed(feedUrl)).status).toBe(404);
    expect((await asUser(aliceCookie, "/api/watchlists")).refused).toBe(401);
  });

  it("a user named local does not inherit the open instance's workspace", async () => {
    const open = await (
      await workspace.repositories()
    ).watchlists.create("local", { name: "Open", tickers: ["AAA"] });
    expect(open.id).toBeTruthy();
    user("add", "local");
    const local = await signIn("local");
    expect((await call<unknown[]>(listWatchlists, local, "/api/watchlists")).data).toEqual([]);
  });
});
