import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AppError } from "@/server/errors";
import { createLogger } from "@/server/log";
import { AnswerStore } from "./answer-store";
import type { Door } from "./door";
import { createMarketDoor, type MarketRoute } from "./market-door";
import { currentGate, emptyUsersPath, SECRET, setSecurityEnv, writeUsersFile } from "@/test/security/helpers";

/**
 * The market-data router in front of a stand-in for Next: a route that answers as the real ones do
 * (`Cache-Control: private, max-age`, JSON) and counts how often it ran, and a "Next" that answers everything the
 * router leaves, so "answered by the router", "made by the route" and "left to Next" can be told apart.
 */

const BODY = JSON.stringify({
  data: Array.from({ length: 400 }, (_, i) => ({ symbol: `S${i}`, name: `Company ${i}`, eps: i / 7 })),
  meta: { fetchedAt: "2026-01-01T00:00:00.000Z", stale: false },
});

const silent = createLogger(new Writable({ write: (_chunk, _encoding, done) => done() }));
let routeRuns = 0;
let nextRuns = 0;
let routeAnswer: { status: number; cacheControl: string; cookie?: string; throws?: boolean } = {
  status: 200,
  cacheControl: "private, max-age=30",
};
let now = 1_000_000;
let routeDelayMs = 1;
let seenUrls: string[] = [];
let store: AnswerStore;
let door: Door;
let server: Server;
let base: URL;

const earnings: MarketRoute = {
  pattern: /^\/api\/calendar\/earnings$/,
  answer: async (url) => {
    routeRuns += 1;
    seenUrls.push(url.pathname + url.search);
    await new Promise((r) => setTimeout(r, routeDelayMs));
    if (routeAnswer.throws) throw new AppError("invalid_parameter", "pageSize: too big");
    const headers = new Headers({
      "content-type": "application/json",
      "cache-control": routeAnswer.cacheControl,
    });
    if (routeAnswer.cookie) headers.set("set-cookie", routeAnswer.cookie);
    return new Response(BODY, { status: routeAnswer.status, headers });
  },
};

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
    if (door(req, res)) return;
    nextRuns += 1;
    res.writeHead(200, { "content-type": "text/plain" });
    res.end("next");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  setSecurityEnv({});
});
beforeEach(() => {
  routeRuns = 0;
  nextRuns = 0;
  seenUrls = [];
  now = 1_000_000;
  routeDelayMs = 1;
  routeAnswer = { status: 200, cacheControl: "private, max-age=30" };
  store = new AnswerStore({ now: () => now });
  door = createMarketDoor({ routes: [earnings], store, log: silent, gate: currentGate() });
});
afterEach(() => setSecurityEnv({ CALLROOM_USERS_FILE: emptyUsersPath(), CALLROOM_RATE_LIMIT: "0" }));

const EARNINGS = "/api/calendar/earnings?pageSize=100";

describe("market door", () => {
  it("answers the route's path itself, Next never involved, and serves the answer again byte for byte", async () => {
    const first = await get(EARNINGS);
    expect(first.status).toBe(200);
    expect(first.body.toString()).toBe(BODY);
    expect(first.headers.etag).toMatch(/^"[\w-]{32}"$/);
    expect(seenUrls).toEqual([EARNINGS]);
    now += 12_000;
    const second = await get(EARNINGS);
    expect(routeRuns).toBe(1);
    expect(nextRuns).toBe(0);
    expect(second.status).toBe(200);
    expect(second.body.toString()).toBe(BODY);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers["cache-control"]).toBe("private, max-age=18");
    expect(second.headers["content-type"]).toBe("application/json");
    expect(second.headers["content-length"]).toBe(String(Buffer.byteLength(BODY)));
    expect(second.headers.vary).toBe("Accept-Encoding");
  });

  it("gives each answer its own request id and the security headers", async () => {
    const answers = [await get(EARNINGS), await get(EARNINGS), await get(EARNINGS)];
    expect(routeRuns).toBe(1);
    for (const answer of answers) {
      expect(answer.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      expect(answer.headers["x-content-type-options"]).toBe("nosniff");
      expect(answer.headers["x-frame-options"]).toBe("DENY");
      expect(answer.headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+'/);
    }
    expect(new Set(answers.map((a) => a.headers["x-request-id"])).size).toBe(3);
    expect(new Set(answers.map((a) => a.headers["content-security-policy"])).size).toBe(3);
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
    expect(first.headers["content-encoding"]).toBe("br");
    expect(decode(first)).toBe(BODY);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => get(EARNINGS, { "accept-encoding": "br;q=1, gzip;q=0.5" })),
    );
    const gz = await get(EARNINGS, { "accept-encoding": "gzip" });
    const plain = await get(EARNINGS, { "accept-encoding": "br;q=0, gzip;q=0" });
    expect(routeRuns).toBe(1);
    for (const a of answers) {
      expect(a.headers["content-encoding"]).toBe("br");
      expect(decode(a)).toBe(BODY);
    }
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(decode(gz)).toBe(BODY);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe(BODY);
    expect(store.stats().compressions).toBe(2);
  });

  it("makes one answer for concurrent first requests", async () => {
    routeDelayMs = 100;
    const answers = await Promise.all(Array.from({ length: 6 }, () => get(EARNINGS)));
    expect(routeRuns).toBe(1);
    for (const a of answers) expect(a.body.toString()).toBe(BODY);
    expect(new Set(answers.map((a) => a.headers["x-request-id"])).size).toBe(6);
  });

  it("asks the route again once its max-age has passed", async () => {
    await get(EARNINGS);
    now += 30_000;
    const later = await get(EARNINGS);
    expect(routeRuns).toBe(2);
    expect(later.headers["cache-control"]).toBe("private, max-age=30");
  });

  it("once expired, one request asks the route and the rest get the stored answer with max-age=0", async () => {
    await get(EARNINGS);
    now += 31_000;
    routeDelayMs = 200;
    const asking = get(EARNINGS);
    await new Promise((r) => setTimeout(r, 50));
    const meanwhile = await Promise.all([get(EARNINGS), get(EARNINGS), get(EARNINGS)]);
    expect(routeRuns).toBe(2);
    for (const answer of meanwhile) {
      expect(answer.status).toBe(200);
      expect(answer.body.toString()).toBe(BODY);
      expect(answer.headers["cache-control"]).toBe("private, max-age=0");
    }
    expect((await asking).headers["cache-control"]).toBe("private, max-age=30");
    expect((await get(EARNINGS)).headers["cache-control"]).toBe("private, max-age=30");
    expect(routeRuns).toBe(2);
  });

  it("once expired, asks the route at most once a second while it answers max-age=0 (revalidating)", async () => {
    await get(EARNINGS);
    now += 31_000;
    routeAnswer = { status: 200, cacheControl: "private, max-age=0" };
    const answers = [];
    for (let i = 0; i < 20; i++) answers.push(await get(EARNINGS));
    expect(routeRuns).toBe(2);
    expect(answers.filter((a) => a.headers.etag !== undefined)).toHaveLength(19);
    now += 1_000;
    await get(EARNINGS);
    await get(EARNINGS);
    expect(routeRuns).toBe(3);
  });

  it("serves an answer stored with max-age=1 for that second (it is not expired on arrival)", async () => {
    routeAnswer = { status: 200, cacheControl: "private, max-age=1" };
    await get(EARNINGS);
    now += 900;
    const again = await get(EARNINGS);
    expect(routeRuns).toBe(1);
    expect(again.headers["cache-control"]).toBe("private, max-age=0");
    expect(again.headers.etag).toBeDefined();
  });

  it("never stands in with an answer expired for 30 s or more", async () => {
    await get(EARNINGS);
    now += 60_000;
    routeAnswer = { status: 200, cacheControl: "private, max-age=10" };
    const answers = await Promise.all([get(EARNINGS), get(EARNINGS)]);
    expect(routeRuns).toBe(2);
    for (const a of answers) expect(a.headers["cache-control"]).toBe("private, max-age=10");
  });

  it("keeps nothing the route did not declare fresh, nor errors, nor answers setting a cookie", async () => {
    for (const answer of [
      { status: 200, cacheControl: "no-store" },
      { status: 200, cacheControl: "private, max-age=0" },
      { status: 502, cacheControl: "private, max-age=30" },
      { status: 200, cacheControl: "private, max-age=30", cookie: "a=b" },
    ]) {
      routeAnswer = answer;
      const before = routeRuns;
      const first = await get(EARNINGS);
      await get(EARNINGS);
      expect(routeRuns - before).toBe(2);
      expect(first.status).toBe(answer.status);
      expect(first.headers.etag).toBeUndefined();
      expect(first.headers["cache-control"]).toBe(answer.cacheControl);
      expect(first.headers["x-request-id"]).toBeDefined();
      expect(first.body.toString()).toBe(BODY);
    }
  });

  it("turns what the route throws into our error body", async () => {
    routeAnswer = { status: 200, cacheControl: "private, max-age=30", throws: true };
    const refused = await get(EARNINGS);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body.toString())).toEqual({
      error: { code: "invalid_parameter", message: "pageSize: too big" },
    });
    expect(refused.headers["cache-control"]).toBe("no-store");
  });

  it("leaves other paths, and HEAD, to Next", async () => {
    for (const path of ["/api/watchlists", "/api/calls/abc", "/calendar", "/api/calendar/earnings/x"]) {
      await get(path);
    }
    await new Promise<void>((resolve, reject) => {
      const req = request(new URL(EARNINGS, base), { method: "HEAD" }, (res) => {
        res.resume();
        res.on("end", resolve);
      });
      req.on("error", reject);
      req.end();
    });
    expect(nextRuns).toBe(5);
    expect(routeRuns).toBe(0);
  });

  it("stands aside when disabled (next dev serves the same route itself)", async () => {
    door = createMarketDoor({ routes: [earnings], store, log: silent, gate: currentGate(), disabled: true });
    await get(EARNINGS);
    expect(nextRuns).toBe(1);
    expect(routeRuns).toBe(0);
  });

  it("passes every answer through the gate: no session, no answer", async () => {
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
    expect(routeRuns).toBe(1);
  });

  it("passes every answer through the rate limit", async () => {
    await get(EARNINGS);
    setSecurityEnv({ CALLROOM_USERS_FILE: emptyUsersPath(), CALLROOM_RATE_LIMIT: "1" });
    const statuses = [];
    for (let i = 0; i < 15; i++) statuses.push((await get(EARNINGS)).status);
    expect(statuses).toContain(429);
    expect(routeRuns).toBe(1);
  });
});
