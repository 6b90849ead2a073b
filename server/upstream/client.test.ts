import { Writable } from "node:stream";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError, toErrorResponse } from "../errors";
import { createLogger, installLogger } from "../log";
import { getRuntime } from "../runtime";
import { inBackground } from "./budget";
import { clearUpstreamEnv, setUpstreamEnv } from "@/test/support/upstream-env";
import { json, noDataBody, startFakeUpstream, type FakeUpstream } from "@/test/support/fake-upstream";

const KEY = "sk-live-SECRET-4f9a7c";
let ENV: Parameters<typeof setUpstreamEnv>[0] = {};
const schema = z.object({ earnings: z.array(z.object({ ticker: z.string() })) });

let fake: FakeUpstream;
let logLines: string[] = [];

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(async () => {
  await fake.close();
  clearUpstreamEnv();
  installLogger(undefined);
});
beforeEach(() => {
  fake.requests = [];
  logLines = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  const logger = createLogger(sink);
  logger.level = "debug";
  installLogger(logger);
  // After the logger: the runtime hands its logger to the client it builds.
  ENV = { UPSTREAM_BASE_URL: fake.url, UPSTREAM_API_KEY: KEY, UPSTREAM_TIMEOUT_MS: "1000" };
  setUpstreamEnv(ENV);
});
afterEach(() => {
  // The key must never reach a log line, whatever the test did.
  expect(logLines.join("\n")).not.toContain(KEY);
});

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    const appError = error as AppError;
    expect(appError.message).not.toContain(KEY);
    const body = await toErrorResponse(appError).text();
    expect(body).not.toContain(KEY);
    return appError;
  }
  throw new Error("expected a failure");
}

describe("upstreamGet", () => {
  it("sends the key as `Authorization: token <key>` and validates the body", async () => {
    fake.handler = (_req, res) => json(res, 200, { earnings: [{ ticker: "NWSC" }] });
    const result = await getRuntime().upstream.http.get(
      "/api/v2.1/calendar/earnings",
      { pagesize: 5, "parameters[tickers]": "A,B", x: undefined },
      schema,
    );
    expect(result).toEqual({ status: "ok", data: { earnings: [{ ticker: "NWSC" }] } });
    expect(fake.requests[0]?.authorization).toBe(`token ${KEY}`);
    expect(fake.requests[0]?.query.get("parameters[tickers]")).toBe("A,B");
    expect(fake.requests[0]?.query.has("x")).toBe(false);
    expect(fake.requests[0]?.query.has("token")).toBe(false);
  });

  it("returns a typed no-data result for 404 no_data_found", async () => {
    fake.handler = (_req, res) => json(res, 404, noDataBody);
    expect(await getRuntime().upstream.http.get("/p", {}, schema)).toEqual({ status: "no_data" });
  });

  it("reads a no-data 404 whose body is a bare JSON string", async () => {
    fake.handler = (_req, res) =>
      json(res, 404, JSON.stringify("No data found for the specified parameters"));
    expect(await getRuntime().upstream.http.get("/p", {}, schema)).toEqual({ status: "no_data" });
  });

  it("maps an unknown path's 404 ({message}) to 502, not to no data", async () => {
    fake.handler = (_req, res) => json(res, 404, { message: "no Route matched with those values" });
    const error = await failure(getRuntime().upstream.http.get("/nope", {}, schema));
    expect(error.status).toBe(502);
  });

  it("maps 401 to 502 saying the key was rejected", async () => {
    fake.handler = (_req, res) =>
      json(res, 401, {
        ok: false,
        errors: [{ code: "auth_failed", id: "unauthorized", value: `bad token ${KEY}` }],
      });
    const error = await failure(getRuntime().upstream.http.get("/p", {}, schema));
    expect(error).toMatchObject({ status: 502, code: "upstream_auth" });
    expect(error.message).toMatch(/key was rejected/);
    expect(fake.requests).toHaveLength(1);
  });

  it("maps 403 to 502 saying our plan lacks the data", async () => {
    fake.handler = (_req, res) => json(res, 403, { text: "Forbidden" });
    const error = await failure(getRuntime().upstream.http.get("/p", {}, schema));
    expect(error).toMatchObject({ status: 502, code: "upstream_plan" });
    expect(error.message).toMatch(/plan does not include/);
  });

  it("maps 429 to 503 with Retry-After and does not retry", async () => {
    fake.handler = (_req, res) => json(res, 429, { message: "Too many requests" }, { "Retry-After": "7" });
    const error = await failure(getRuntime().upstream.http.get("/p", {}, schema));
    expect(error).toMatchObject({ status: 503, code: "upstream_rate_limited", retryAfterSeconds: 7 });
    expect(toErrorResponse(error).headers.get("Retry-After")).toBe("7");
    expect(fake.requests).toHaveLength(1);
  });

  it("logs every 429 as `upstream rate limit`, counts it in the metrics by lane, and slows the background down", async () => {
    fake.handler = (_req, res) => json(res, 429, { message: "Too many requests" }, { "Retry-After": "2" });
    const runtime = getRuntime();
    await failure(runtime.upstream.http.get("/p", {}, schema));
    await failure(inBackground(() => runtime.upstream.http.get("/p", {}, schema)));
    const logged = logLines.map((l) => JSON.parse(l) as { msg: string; lane?: string });
    expect(logged.filter((l) => l.msg === "upstream rate limit").map((l) => l.lane)).toEqual([
      "user",
      "background",
    ]);
    const scraped = await runtime.metrics.registry.metrics();
    expect(scraped).toContain('callroom_upstream_rate_limited_total{lane="user"} 1');
    expect(scraped).toContain('callroom_upstream_rate_limited_total{lane="background"} 1');
    const budget = runtime.budget.snapshot();
    expect(budget.rateLimited).toEqual({ user: 1, background: 1 });
    expect(budget.ratePerSecond).toBeLessThan(budget.configuredRatePerSecond);
    expect(budget.pausedForMs).toBeGreaterThan(1000);
  });

  it("does not retry a 400", async () => {
    fake.handler = (_req, res) =>
      json(res, 400, {
        ok: false,
        errors: [
          { code: "bad_request", id: "invalid_parameter", value: "pagesize must be between 1 and 1000" },
        ],
      });
    const error = await failure(getRuntime().upstream.http.get("/p", {}, schema));
    expect(error.status).toBe(502);
    expect(fake.requests).toHaveLength(1);
  });

  it.each([500, 502, 503])("retries once after a %i and succeeds", async (status) => {
    let calls = 0;
    fake.handler = (_req, res) => {
      calls += 1;
      if (calls === 1)
        json(res, status, {
          ok: false,
          errors: [{ code: "internal_server_error", id: "server_error", value: "x" }],
        });
      else json(res, 200, { earnings: [] });
    };
    expect(await getRuntime().upstream.http.get("/p", {}, schema)).toEqual({
      status: "ok",
      data: { earnings: [] },
    });
    expect(fake.requests).toHaveLength(2);
  });

  it("gives up after one retry with 502 and a body free of upstream details", async () => {
    fake.handler = (_req, res) => json(res, 500, { message: "stack trace at db.internal:5432" });
    const error = await failure(getRuntime().upstream.http.get("/p", {}, schema));
    expect(error).toMatchObject({ status: 502, code: "upstream_error" });
    expect(fake.requests).toHaveLength(2);
    const body = await toErrorResponse(error).text();
    expect(body).not.toContain("db.internal");
  });

  it("does not retry a 503 that asks for a long wait", async () => {
    fake.handler = (_req, res) => json(res, 503, "Service unavailable", { "Retry-After": "30" });
    const error = await failure(getRuntime().upstream.http.get("/p", {}, schema));
    expect(error.status).toBe(502);
    expect(fake.requests).toHaveLength(1);
  });

  it("stops retrying when the retry budget is spent", async () => {
    setUpstreamEnv(ENV, { retryBudget: { max: 2, windowMs: 60_000 } });
    fake.handler = (_req, res) => json(res, 503, "Service unavailable");
    for (let i = 0; i < 4; i += 1) await failure(getRuntime().upstream.http.get("/p", {}, schema));
    // 4 calls, only 2 of them retried.
    expect(fake.requests).toHaveLength(6);
  });

  it("retries a network error (connection reset)", async () => {
    let calls = 0;
    fake.handler = (req, res) => {
      calls += 1;
      if (calls === 1) req.socket.destroy();
      else json(res, 200, { earnings: [{ ticker: "OK" }] });
    };
    expect(await getRuntime().upstream.http.get("/p", {}, schema)).toEqual({
      status: "ok",
      data: { earnings: [{ ticker: "OK" }] },
    });
  });

  it("maps a timeout to 504", async () => {
    setUpstreamEnv({ UPSTREAM_BASE_URL: fake.url, UPSTREAM_API_KEY: KEY, UPSTREAM_TIMEOUT_MS: "200" });
    fake.handler = (_req, res) => setTimeout(() => json(res, 200, { earnings: [] }), 1000);
    const started = Date.now();
    const error = await failure(getRuntime().upstream.http.get("/p", {}, schema));
    expect(error).toMatchObject({ status: 504, code: "upstream_timeout" });
    expect(Date.now() - started).toBeLessThan(900);
  });

  it("maps the caller's abort to a cancelled request, not a timeout", async () => {
    fake.handler = (_req, res) => setTimeout(() => json(res, 200, { earnings: [] }), 500);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await failure(
      getRuntime().upstream.http.get("/p", {}, schema, { signal: controller.signal }),
    );
    expect(error.status).toBe(499);
  });

  it("maps a body that does not match the wire schema to 502 'unexpected upstream response'", async () => {
    fake.handler = (_req, res) => json(res, 200, { earnings: [{ nope: KEY }] });
    const error = await failure(getRuntime().upstream.http.get("/p", {}, schema));
    expect(error.status).toBe(502);
    expect(error.message).toMatch(/unexpected response/i);
  });

  it("maps a non-JSON 200 to 502", async () => {
    fake.handler = (_req, res) => {
      res.writeHead(200, { "Content-Type": "text/html" });
      res.end("<html>maintenance</html>");
    };
    expect((await failure(getRuntime().upstream.http.get("/p", {}, schema))).status).toBe(502);
  });

  it("answers 503 upstream_not_configured without a base URL", async () => {
    setUpstreamEnv({ UPSTREAM_API_KEY: KEY });
    const error = await failure(getRuntime().upstream.http.get("/p", {}, schema));
    expect(error).toMatchObject({ status: 503, code: "upstream_not_configured" });
    expect(fake.requests).toHaveLength(0);
  });

  it("scrubs the key from anything logged, even inside messages and URLs", () => {
    installLogger(undefined);
    const lines: string[] = [];
    const logger = createLogger(
      new Writable({
        write(chunk: Buffer, _e, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    );
    installLogger(logger);
    logger.warn(
      {
        headers: { authorization: `token ${KEY}` },
        url: `http://x/?token=${KEY}`,
        err: new Error(`failed with ${KEY}`),
      },
      `oops ${KEY}`,
    );
    const out = lines.join("\n");
    expect(out).not.toContain(KEY);
    expect(out).toContain("[REDACTED]");
  });
});
