import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "@/server/auth/session";
import { emptyUsersPath, sealSession, SECRET, setSecurityEnv, writeUsersFile } from "@/test/security/helpers";
import { getRuntime } from "@/server/runtime";

/**
 * The stream's door over a real socket: a bare `node:http` server stands in for the custom server (it offers each
 * request to the runtime's door and answers 404 "next" for what the door declines).
 */

const CALL = "0123456789abcdef01234567";
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (!getRuntime().door(req, res)) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("next");
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  setSecurityEnv({});
});
// Each test's runtime is the one setSecurityEnv installed last: the server offers requests to its door.
beforeEach(() => {
  setSecurityEnv({ CALLROOM_USERS_FILE: emptyUsersPath(), CALLROOM_RATE_LIMIT: "0" });
});

interface Open {
  res: IncomingMessage;
  text: () => string;
  /** Resolves when the body has ended (a refusal; a stream does not end by itself). */
  ended: Promise<void>;
  waitFor: (pattern: string | RegExp) => Promise<string>;
  close: () => void;
}

const opened: Open[] = [];
afterEach(() => {
  for (const o of opened.splice(0)) o.close();
});

/** Opens a request and collects its body as it arrives. */
function open(path: string, headers: Record<string, string> = {}): Promise<Open> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { headers: { "x-forwarded-for": "10.1.1.1", ...headers } });
    req.on("error", (error) => (error.message.includes("aborted") ? undefined : reject(error)));
    req.on("response", (res) => {
      let body = "";
      const waiters = new Set<() => void>();
      res.setEncoding("utf8");
      const ended = new Promise<void>((r) => res.once("end", () => r()));
      res.on("data", (chunk: string) => {
        body += chunk;
        for (const w of waiters) w();
      });
      res.on("error", () => {});
      const o: Open = {
        res,
        ended,
        text: () => body,
        waitFor: (pattern) =>
          new Promise((done, fail) => {
            const check = () => {
              const hit = typeof pattern === "string" ? body.includes(pattern) : pattern.test(body);
              if (!hit) return;
              waiters.delete(check);
              clearTimeout(timer);
              done(body);
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`timed out waiting for ${String(pattern)}; got ${JSON.stringify(body)}`));
            }, 5_000);
            waiters.add(check);
            check();
          }),
        close: () => req.destroy(),
      };
      opened.push(o);
      resolve(o);
    });
    req.end();
  });
}

/** One whole exchange with any method (HEAD and POST end on their own). */
function request(
  method: string,
  path: string,
): Promise<{ status: number; headers: IncomingMessage["headers"]; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers: { "x-forwarded-for": "10.1.1.1" } });
    req.on("error", reject);
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.end();
  });
}

async function body(o: Open): Promise<unknown> {
  await o.ended;
  return JSON.parse(o.text());
}

const started = () =>
  getRuntime().live.bus.publish({
    event: "call.started",
    symbol: "AAA",
    data: { callId: CALL, symbol: "AAA", name: "Alpha", startTime: "2026-11-22T10:00:00Z" },
  });

/** Publishes a sentence and returns the cursor it was given. */
const sentence = (sequence: number, text: string) => {
  getRuntime().live.bus.publish({
    event: "sentence",
    symbol: "AAA",
    data: {
      callId: CALL,
      sequence,
      text,
      speaker: "CEO",
      startMs: sequence * 1000,
      endMs: sequence * 1000 + 900,
      confidence: 0.9,
    },
  });
  return getRuntime().live.bus.headCursor();
};

describe("the stream's door", () => {
  it("declines every other request, so Next serves it", async () => {
    for (const path of ["/", "/api/streams", "/api/stream/", "/api/calls?x=/api/stream"]) {
      const o = await open(path);
      expect(o.res.statusCode, path).toBe(404);
      await o.waitFor("next");
    }
  });

  it("streams the preamble and then every published event, with the security headers", async () => {
    const o = await open("/api/stream?tickers=AAA");
    expect(o.res.statusCode).toBe(200);
    expect(o.res.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    expect(o.res.headers["x-content-type-options"]).toBe("nosniff");
    expect(o.res.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(o.res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    await o.waitFor(/^retry: 3000\nid: \d+-0\n\n/);
    started();
    sentence(0, "Good morning and welcome.");
    const text = await o.waitFor("Good morning");
    expect(text).toMatch(/event: call\.started\ndata: \{"callId":"0123456789abcdef01234567"/);
    expect(text).toMatch(/id: \d+-2\nevent: sentence\ndata: .*"text":"Good morning and welcome\."/);
  });

  it("delivers only what the filter asks for", async () => {
    const o = await open("/api/stream?tickers=BBB");
    await o.waitFor("retry:");
    started();
    getRuntime().live.bus.publish({
      event: "call.started",
      symbol: "BBB",
      data: { callId: "b".repeat(24), symbol: "BBB", name: "Beta", startTime: "2026-11-22T10:00:00Z" },
    });
    const text = await o.waitFor("Beta");
    expect(text).not.toContain("Alpha");
  });

  it("resumes after Last-Event-ID with exactly the events missed, in one burst", async () => {
    started();
    const from = sentence(0, "first");
    sentence(1, "second");
    sentence(2, "third");
    const o = await open("/api/stream?tickers=AAA", { "last-event-id": from });
    const text = await o.waitFor("third");
    expect(text).not.toContain('"first"');
    expect(text.indexOf("second")).toBeLessThan(text.indexOf("third"));
    // Resuming clients already have an id: the preamble carries none.
    expect(text.startsWith("retry: 3000\n\n")).toBe(true);
  });

  it("answers a cursor from another server life with a reset", async () => {
    const o = await open("/api/stream?tickers=*", { "last-event-id": "1-5" });
    const text = await o.waitFor("event: reset");
    expect(text).toContain('"reason":"unknown_cursor"');
  });

  it("rejects bad input with 400 and the rule, as the route does", async () => {
    const none = await open("/api/stream");
    expect(none.res.statusCode).toBe(400);
    expect(await body(none)).toMatchObject({ error: { code: "invalid_parameter" } });
    const bad = await open("/api/stream?tickers=not%20a%20ticker");
    expect(bad.res.statusCode).toBe(400);
    expect(((await body(bad)) as { error: { message: string } }).error.message).toMatch(/tickers/);
    expect(bad.res.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("answers HEAD with headers only, holding no slot, subscription or timer; other methods 405", async () => {
    setSecurityEnv({
      CALLROOM_USERS_FILE: emptyUsersPath(),
      CALLROOM_RATE_LIMIT: "0",
      CALLROOM_SSE_PER_CLIENT: "2",
    });
    const subscribers = getRuntime().live.browsers.size();
    for (let i = 0; i < 6; i += 1) {
      const head = await request("HEAD", "/api/stream?tickers=*");
      expect(head.status).toBe(200);
      expect(head.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
      expect(head.body).toBe("");
    }
    expect(getRuntime().live.browsers.size()).toBe(subscribers);
    // The cap (2) is untouched: two real streams still open.
    const a = await open("/api/stream?tickers=*");
    const b = await open("/api/stream?tickers=*");
    expect([a.res.statusCode, b.res.statusCode]).toEqual([200, 200]);
    const post = await request("POST", "/api/stream?tickers=*");
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe("GET, HEAD");
  });

  it("caps open streams per client and frees the slot when a stream closes", async () => {
    setSecurityEnv({
      CALLROOM_USERS_FILE: emptyUsersPath(),
      CALLROOM_RATE_LIMIT: "0",
      CALLROOM_SSE_PER_CLIENT: "2",
    });
    const a = await open("/api/stream?tickers=*");
    const b = await open("/api/stream?tickers=*");
    expect([a.res.statusCode, b.res.statusCode]).toEqual([200, 200]);
    const c = await open("/api/stream?tickers=*");
    expect(c.res.statusCode).toBe(429);
    expect(c.res.headers["retry-after"]).toBe("5");
    expect(await body(c)).toMatchObject({ error: { code: "too_many_streams" } });
    // Another client is not affected.
    const other = await open("/api/stream?tickers=*", { "x-forwarded-for": "10.2.2.2" });
    expect(other.res.statusCode).toBe(200);
    a.close();
    let d: Open | null = null;
    for (let i = 0; i < 50 && d?.res.statusCode !== 200; i++) {
      await new Promise((r) => setTimeout(r, 20));
      d = await open("/api/stream?tickers=*");
    }
    expect(d?.res.statusCode).toBe(200);
  });

  it("applies the per-client /api rate limit", async () => {
    setSecurityEnv({ CALLROOM_USERS_FILE: emptyUsersPath(), CALLROOM_RATE_LIMIT: "1" });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const o = await open("/api/stream?tickers=*");
      statuses.push(o.res.statusCode!);
      o.close();
    }
    expect(statuses).toContain(429);
    expect(statuses[0]).toBe(200);
  });
});

describe("the stream's door with sign-in", () => {
  beforeEach(async () => {
    setSecurityEnv({
      CALLROOM_USERS_FILE: await writeUsersFile({ alice: "correct horse battery" }),
      CALLROOM_SESSION_SECRET: SECRET,
      CALLROOM_RATE_LIMIT: "0",
    });
  });

  it("refuses a request without a valid session with 401, and streams with one", async () => {
    const anonymous = await open("/api/stream?tickers=*");
    expect(anonymous.res.statusCode).toBe(401);
    expect(await body(anonymous)).toEqual({
      error: { code: "unauthenticated", message: "Sign in to use Callroom." },
    });
    const forged = await open("/api/stream?tickers=*", { cookie: `${SESSION_COOKIE}=Fe26.2**forged` });
    expect(forged.res.statusCode).toBe(401);
    const signedIn = await open("/api/stream?tickers=*", {
      cookie: `${SESSION_COOKIE}=${await sealSession("alice")}`,
    });
    expect(signedIn.res.statusCode).toBe(200);
    await signedIn.waitFor("retry: 3000");
  });
});
