import { createRequire } from "node:module";
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "@/server/log";
import { createAnswerDoor } from "./answer-door";
import { AnswerStore } from "./answer-store";
import type { Door } from "./door";
import { currentGate, emptyUsersPath, SECRET, setSecurityEnv, writeUsersFile } from "@/test/security/helpers";

/**
 * The answer door in front of a stand-in for Next: the stand-in answers as a route handler does behind the proxy
 * (security headers, request id, `Cache-Control: private, max-age`, gzip through Next's compression middleware) and
 * counts how often it ran, so "served by the door" and "served by Next" can be told apart.
 */

// Next's own compression middleware, as its router server applies it to every answer (router-server.js).
const compression = createRequire(import.meta.url)("next/dist/compiled/compression") as () => (
  req: IncomingMessage,
  res: ServerResponse,
  next: () => void,
) => void;

const BODY = JSON.stringify({
  data: Array.from({ length: 400 }, (_, i) => ({ symbol: `S${i}`, name: `Company ${i}`, eps: i / 7 })),
  meta: { fetchedAt: "2026-01-01T00:00:00.000Z", stale: false },
});

const silent = createLogger(new Writable({ write: (_chunk, _encoding, done) => done() }));
let nextRuns = 0;
let routeAnswer: { status: number; cacheControl: string; cookie?: string } = {
  status: 200,
  cacheControl: "private, max-age=30",
};
let now = 1_000_000;
let nextDelayMs = 1;
let store: AnswerStore;
let door: Door;
let server: Server;
let base: URL;

function fakeNext(req: IncomingMessage, res: ServerResponse): void {
  nextRuns += 1;
  compression()(req, res, () => {});
  // What proxy.ts adds to every response, per request.
  res.setHeader("x-request-id", `next-${nextRuns}`);
  res.setHeader("content-security-policy", "default-src 'self'; script-src 'nonce-abc'");
  res.setHeader("x-content-type-options", "nosniff");
  res.setHeader("vary", "rsc, next-router-state-tree");
  res.statusCode = routeAnswer.status;
  res.setHeader("content-type", "application/json");
  res.setHeader("cache-control", routeAnswer.cacheControl);
  if (routeAnswer.cookie) res.setHeader("set-cookie", routeAnswer.cookie);
  // A route handler's body arrives in pieces from a web stream.
  res.write(BODY.slice(0, 1000));
  setTimeout(() => res.end(BODY.slice(1000)), nextDelayMs);
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

const decode = (a: Answer) =>
  a.headers["content-encoding"] === "br"
    ? brotliDecompressSync(a.body).toString()
    : a.headers["content-encoding"] === "gzip"
      ? gunzipSync(a.body).toString()
      : a.body.toString();

beforeAll(async () => {
  setSecurityEnv({ CALLROOM_USERS_FILE: emptyUsersPath(), CALLROOM_RATE_LIMIT: "0" });
  server = createServer((req, res) => {
    if (!door(req, res)) fakeNext(req, res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  setSecurityEnv({});
});
beforeEach(() => {
  nextRuns = 0;
  now = 1_000_000;
  nextDelayMs = 1;
  routeAnswer = { status: 200, cacheControl: "private, max-age=30" };
  store = new AnswerStore({ now: () => now });
  door = createAnswerDoor({ store, log: silent, gate: currentGate() });
});
afterEach(() => setSecurityEnv({ CALLROOM_USERS_FILE: emptyUsersPath(), CALLROOM_RATE_LIMIT: "0" }));

const EARNINGS = "/api/calendar/earnings?pageSize=100";

describe("answer door", () => {
  it("serves a fresh answer again without Next, byte for byte, with a strong ETag and the time left", async () => {
    const first = await get(EARNINGS);
    expect(first.status).toBe(200);
    expect(first.body.toString()).toBe(BODY);
    expect(first.headers.etag).toMatch(/^"[\w-]{32}"$/);
    now += 12_000;
    const second = await get(EARNINGS);
    expect(nextRuns).toBe(1);
    expect(second.status).toBe(200);
    expect(second.body.toString()).toBe(BODY);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers["cache-control"]).toBe("private, max-age=18");
    expect(second.headers["content-type"]).toBe("application/json");
    expect(second.headers["content-length"]).toBe(String(Buffer.byteLength(BODY)));
    expect(second.headers.vary).toBe("rsc, next-router-state-tree, Accept-Encoding");
  });

  it("gives each answer its own request id and the security headers, never the stored request's", async () => {
    await get(EARNINGS);
    const a = await get(EARNINGS);
    const b = await get(EARNINGS);
    expect(nextRuns).toBe(1);
    for (const answer of [a, b]) {
      expect(answer.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      expect(answer.headers["x-content-type-options"]).toBe("nosniff");
      expect(answer.headers["x-frame-options"]).toBe("DENY");
      expect(answer.headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+'/);
    }
    expect(a.headers["x-request-id"]).not.toBe(b.headers["x-request-id"]);
    expect(a.headers["content-security-policy"]).not.toBe(b.headers["content-security-policy"]);
  });

  it("answers If-None-Match with 304 and no body", async () => {
    const first = await get(EARNINGS);
    const revalidated = await get(EARNINGS, { "if-none-match": `W/${String(first.headers.etag)}` });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect(revalidated.headers.etag).toBe(first.headers.etag);
    expect(revalidated.headers["cache-control"]).toBe("private, max-age=30");
    const other = await get(EARNINGS, { "if-none-match": '"something-else"' });
    expect(other.status).toBe(200);
  });

  it("compresses once per stored answer, in the coding each client accepts", async () => {
    const first = await get(EARNINGS, { "accept-encoding": "gzip, deflate, br" });
    // Next gzipped the first answer; that gzip is kept rather than made again.
    expect(first.headers["content-encoding"]).toBe("gzip");
    expect(decode(first)).toBe(BODY);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => get(EARNINGS, { "accept-encoding": "br;q=1, gzip;q=0.5" })),
    );
    const gz = await get(EARNINGS, { "accept-encoding": "gzip" });
    const plain = await get(EARNINGS, { "accept-encoding": "br;q=0, gzip;q=0" });
    expect(nextRuns).toBe(1);
    for (const a of answers) {
      expect(a.headers["content-encoding"]).toBe("br");
      expect(decode(a)).toBe(BODY);
    }
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.body.equals(first.body)).toBe(true);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe(BODY);
    expect(store.stats().compressions).toBe(1);
  });

  it("asks Next again once the route's max-age has passed", async () => {
    await get(EARNINGS);
    now += 30_000;
    const later = await get(EARNINGS);
    expect(nextRuns).toBe(2);
    expect(later.headers["x-request-id"]).toBe("next-2");
  });

  it("once expired, sends one request at a time to Next and the rest the stored answer with max-age=0", async () => {
    await get(EARNINGS);
    now += 31_000;
    nextDelayMs = 200;
    const asking = get(EARNINGS);
    await new Promise((r) => setTimeout(r, 50));
    const meanwhile = await Promise.all([get(EARNINGS), get(EARNINGS), get(EARNINGS)]);
    expect(nextRuns).toBe(2);
    for (const answer of meanwhile) {
      expect(answer.status).toBe(200);
      expect(answer.body.toString()).toBe(BODY);
      expect(answer.headers["cache-control"]).toBe("private, max-age=0");
    }
    // Next's answer (fresh again) is stored and served from then on.
    expect((await asking).headers["x-request-id"]).toBe("next-2");
    expect((await get(EARNINGS)).headers["cache-control"]).toBe("private, max-age=30");
    expect(nextRuns).toBe(2);
  });

  it("once expired, asks Next at most once a second even when Next answers before the next request arrives", async () => {
    await get(EARNINGS);
    now += 31_000;
    routeAnswer = { status: 200, cacheControl: "private, max-age=0" };
    const answers = [];
    for (let i = 0; i < 20; i++) answers.push(await get(EARNINGS));
    expect(nextRuns).toBe(2);
    expect(answers.filter((a) => a.headers.etag !== undefined)).toHaveLength(19);
    now += 1_000;
    await get(EARNINGS);
    await get(EARNINGS);
    expect(nextRuns).toBe(3);
  });

  it("serves an answer stored with max-age=1 for that second (it is not expired on arrival)", async () => {
    routeAnswer = { status: 200, cacheControl: "private, max-age=1" };
    await get(EARNINGS);
    now += 900;
    const again = await get(EARNINGS);
    expect(nextRuns).toBe(1);
    expect(again.headers["cache-control"]).toBe("private, max-age=0");
    expect(again.headers.etag).toBeDefined();
  });

  it("never stands in with an answer expired for 30 s or more", async () => {
    await get(EARNINGS);
    now += 60_000;
    nextDelayMs = 100;
    const answers = await Promise.all([get(EARNINGS), get(EARNINGS)]);
    expect(nextRuns).toBe(3);
    expect(answers.map((a) => a.headers["x-request-id"]).sort()).toEqual(["next-2", "next-3"]);
  });

  it("keeps nothing the route did not declare fresh, nor errors, nor answers setting a cookie", async () => {
    for (const answer of [
      { status: 200, cacheControl: "no-store" },
      { status: 200, cacheControl: "private, max-age=0" },
      { status: 502, cacheControl: "private, max-age=30" },
      { status: 200, cacheControl: "private, max-age=30", cookie: "a=b" },
    ]) {
      routeAnswer = answer;
      const before = nextRuns;
      const first = await get(EARNINGS);
      await get(EARNINGS);
      expect(nextRuns - before).toBe(2);
      expect(first.status).toBe(answer.status);
      expect(first.headers.etag).toBeUndefined();
      expect(first.body.toString()).toBe(BODY);
    }
  });

  it("leaves paths outside the market-data routes to Next every time", async () => {
    for (const path of ["/api/watchlists", "/api/calls/abc", "/calendar", "/api/search?q=x"]) {
      await get(path);
      await get(path);
    }
    expect(nextRuns).toBe(8);
  });

  it("passes every stored answer through the gate: no session, no answer", async () => {
    await get(EARNINGS);
    setSecurityEnv({
      CALLROOM_USERS_FILE: await writeUsersFile({ alice: "correct horse battery" }),
      CALLROOM_SESSION_SECRET: SECRET,
      CALLROOM_RATE_LIMIT: "0",
    });
    const refused = await get(EARNINGS);
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body.toString())).toEqual({
      error: { code: "unauthenticated", message: "Sign in to use Callroom." },
    });
    expect(refused.headers["x-request-id"]).toBeDefined();
    expect(refused.headers.etag).toBeUndefined();
    expect(nextRuns).toBe(1);
  });

  it("passes every stored answer through the rate limit", async () => {
    await get(EARNINGS);
    setSecurityEnv({ CALLROOM_USERS_FILE: emptyUsersPath(), CALLROOM_RATE_LIMIT: "1" });
    const statuses = [];
    for (let i = 0; i < 15; i++) statuses.push((await get(EARNINGS)).status);
    expect(statuses).toContain(429);
    expect(nextRuns).toBe(1);
  });
});
