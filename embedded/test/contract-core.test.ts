/** Contract §1 (authentication, errors, rate limit) and §7 (control API: faults, stats) over real HTTP. */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { createAuthorizer } from "../core/auth";
import { controlRoutes } from "../core/control-routes";
import { FaultState } from "../core/faults";
import { createRequestHandler } from "../core/handler";
import { RateLimiter } from "../core/rate-limit";
import { RequestStats } from "../core/stats";
import { startTestEmbedded, type TestEmbedded } from "./harness";
import {
  AUTH_FAILED,
  badRequest,
  FORBIDDEN,
  get,
  request,
  SERVER_ERROR,
  TOO_MANY,
  UNAVAILABLE,
} from "./http";

const EARNINGS = "/api/v2.1/calendar/earnings?pagesize=1";

describe("embedded §1: authentication and errors", () => {
  let embedded: TestEmbedded;
  beforeAll(async () => {
    embedded = await startTestEmbedded({
      EMBEDDED_API_KEYS:
        "demo:all,demo-calendars:calendars+fundamentals,fund-only:fundamentals,cal-only:calendars",
    });
  });
  afterAll(() => embedded.close());

  it("accepts the key in the Authorization header", async () => {
    const answer = await get(embedded.url + EARNINGS, { authorization: "token demo" });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(answer.json).toHaveProperty("earnings");
  });

  it("accepts the key as ?token=", async () => {
    const answer = await get(`${embedded.url}${EARNINGS}&token=demo`);
    expect(answer.status).toBe(200);
    expect(answer.json).toHaveProperty("earnings");
  });

  it("answers 401 for a missing key", async () => {
    const answer = await get(embedded.url + EARNINGS);
    expect(answer.status).toBe(401);
    expect(answer.json).toEqual(AUTH_FAILED);
  });

  it("answers 401 for an unknown key, by header and by query", async () => {
    expect((await get(embedded.url + EARNINGS, { authorization: "token nope" })).json).toEqual(AUTH_FAILED);
    const byQuery = await get(`${embedded.url}${EARNINGS}&token=nope`);
    expect(byQuery.status).toBe(401);
    expect(byQuery.json).toEqual(AUTH_FAILED);
  });

  it("answers 401 for a space-padded key, by header and by query", async () => {
    const byHeader = await get(embedded.url + EARNINGS, { authorization: "token  demo" });
    expect(byHeader.status).toBe(401);
    expect(byHeader.json).toEqual(AUTH_FAILED);
    for (const padded of ["%20demo", "demo%20", "de%20mo"]) {
      const byQuery = await get(`${embedded.url}${EARNINGS}&token=${padded}`);
      expect(byQuery.status).toBe(401);
      expect(byQuery.json).toEqual(AUTH_FAILED);
    }
  });

  it("answers 401 for another authorization scheme", async () => {
    const answer = await get(embedded.url + EARNINGS, { authorization: "Bearer demo" });
    expect(answer.status).toBe(401);
  });

  it("answers 403 when the plan lacks the product", async () => {
    const calendarsWithoutPlan = await get(embedded.url + EARNINGS, { authorization: "token fund-only" });
    expect(calendarsWithoutPlan.status).toBe(403);
    expect(calendarsWithoutPlan.json).toEqual(FORBIDDEN);
    expect((await get(embedded.url + EARNINGS, { authorization: "token cal-only" })).status).toBe(200);
  });

  it("answers 403 to a calendars-only key on a fundamentals route", async () => {
    const url = `${embedded.url}/api/v2.1/fundamentals/company?symbols=X`;
    const refused = await get(url, { authorization: "token cal-only" });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual(FORBIDDEN);
    // The route exists and serves a key whose plan holds fundamentals (X is unknown: no data, not forbidden).
    expect([200, 404]).toContain((await get(url, { authorization: "token demo-calendars" })).status);
    expect((await get(url, { authorization: "token demo-calendars" })).json).not.toEqual({
      message: "no Route matched with those values",
    });
  });

  it("answers 404 with Kong's body for an unknown path, before any key check", async () => {
    for (const path of ["/nope", "/api/v2.1/calendar", "/api/v2.1/calendar/earnings/extra"]) {
      const answer = await get(embedded.url + path);
      expect(answer.status).toBe(404);
      expect(answer.json).toEqual({ message: "no Route matched with those values" });
    }
    const wrongMethod = await request("POST", embedded.url + EARNINGS, { authorization: "token demo" });
    expect(wrongMethod.status).toBe(404);
    expect(wrongMethod.json).toEqual({ message: "no Route matched with those values" });
  });

  it("answers 400 with the envelope naming the parameter and the rule", async () => {
    const answer = await get(`${embedded.url}/api/v2.1/calendar/earnings?pagesize=1001`, {
      authorization: "token demo",
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(badRequest("pagesize must be between 1 and 1000"));
  });
});

describe("embedded §1: unexpected failures", () => {
  let embedded: TestEmbedded;
  beforeAll(async () => {
    const failing = {
      seed: 1,
      companies: [],
      findCompany: () => undefined,
      findCompanyByCik: () => undefined,
      earningsRecords: () => {
        throw new Error("SECRET-internal-detail");
      },
      maRecords: () => [],
    };
    embedded = await startTestEmbedded({}, { universe: failing });
  });
  afterAll(() => embedded.close());

  it("answers a thrown exception with the 500 envelope and no stack or message", async () => {
    const originalError = console.error;
    const logged: unknown[] = [];
    console.error = (...args: unknown[]) => logged.push(args);
    try {
      const answer = await get(embedded.url + EARNINGS, { authorization: "token demo" });
      expect(answer.status).toBe(500);
      expect(answer.json).toEqual(SERVER_ERROR);
      expect(answer.text).not.toContain("SECRET");
      expect(answer.text).not.toContain(".ts");
      expect(logged).toHaveLength(1);
    } finally {
      console.error = originalError;
    }
  });
});

describe("embedded §1: rate limit", () => {
  let embedded: TestEmbedded;
  beforeAll(async () => {
    embedded = await startTestEmbedded({
      EMBEDDED_RATE_LIMIT: "5",
      EMBEDDED_API_KEYS: "demo:all,other:calendars,warm:calendars",
    });
    // The first read of the calendar builds it: on a loaded machine that spread the burst's arrivals over seconds,
    // so each found room in the window and none was refused. A key of its own warms it, outside the burst's budget.
    expect((await get(embedded.url + EARNINGS, { authorization: "token warm" })).status).toBe(200);
  });
  afterAll(() => embedded.close());

  it("refuses requests over 5 per second with 429 and Retry-After, per key", async () => {
    const before = (await embedded.stats()).restRequests.byStatus;
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => get(embedded.url + EARNINGS, { authorization: "token demo" })),
    );
    const tookMs = performance.now() - started;
    const served = answers.filter((answer) => answer.status === 200).length;
    const refusedAnswers = answers.filter((answer) => answer.status === 429);
    expect(served + refusedAnswers.length).toBe(20);
    expect(served).toBeGreaterThanOrEqual(5);
    // A sliding one-second window lets at most 5 through per second the burst lasted (exactly 5 on an idle
    // machine, where the burst takes a few milliseconds); bounding by the burst's duration keeps a loaded CI
    // machine from failing the test while a limiter that let everything through still fails it.
    expect(served).toBeLessThanOrEqual(5 * (Math.floor(tookMs / 1000) + 1));
    expect(refusedAnswers.length).toBeGreaterThan(0);
    const refused = refusedAnswers[0];
    expect(refused?.json).toEqual(TOO_MANY);
    const retryAfter = Number(refused?.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);

    // The service counts its answers by status: what a client's politeness is measured by.
    const counted = (await embedded.stats()).restRequests.byStatus;
    expect((counted["429"] ?? 0) - (before["429"] ?? 0)).toBe(refusedAnswers.length);
    expect((counted["200"] ?? 0) - (before["200"] ?? 0)).toBe(served);

    // Another key has its own budget.
    expect((await get(embedded.url + EARNINGS, { authorization: "token other" })).status).toBe(200);

    // After Retry-After the key is served again.
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 50));
    expect((await get(embedded.url + EARNINGS, { authorization: "token demo" })).status).toBe(200);
  });
});

describe("embedded §7: faults", () => {
  let embedded: TestEmbedded;
  beforeAll(async () => {
    embedded = await startTestEmbedded();
  });
  afterAll(() => embedded.close());
  const earnings = () => get(embedded.url + EARNINGS, { authorization: "token demo" });

  it("error rate 1 turns every REST product answer into the 500 envelope, not control routes", async () => {
    await embedded.setFaults({ restErrorRate: 1, durationSeconds: 30 });
    try {
      const answer = await earnings();
      expect(answer.status).toBe(500);
      expect(answer.json).toEqual(SERVER_ERROR);
      expect((await get(`${embedded.url}/__embedded/stats`)).status).toBe(200);
    } finally {
      await embedded.clearFaults();
    }
    expect((await earnings()).status).toBe(200);
  });

  it("restStatus 503 renders the service_unavailable envelope; 502 and 504 keep their status", async () => {
    await embedded.setFaults({ restErrorRate: 1, restStatus: 503, durationSeconds: 30 });
    const unavailable = await earnings();
    expect(unavailable.status).toBe(503);
    expect(unavailable.json).toEqual(UNAVAILABLE);
    await embedded.setFaults({ restErrorRate: 1, restStatus: 502, durationSeconds: 30 });
    expect((await earnings()).status).toBe(502);
    await embedded.setFaults({ restErrorRate: 1, restStatus: 504, durationSeconds: 30 });
    const timeout = await earnings();
    expect(timeout.status).toBe(504);
    expect(timeout.json).toEqual({ ...SERVER_ERROR });
    await embedded.clearFaults();
  });

  it("latency delays REST answers without failing them, and not control routes", async () => {
    await embedded.setFaults({ restLatencyMs: 2500, durationSeconds: 30 });
    try {
      // Orderings and lower bounds only, so a loaded machine cannot make this flaky.
      const finished: string[] = [];
      const [slow] = await Promise.all([
        earnings().then((answer) => (finished.push("rest"), answer)),
        get(`${embedded.url}/__embedded/stats`).then((answer) => (finished.push("control"), answer)),
      ]);
      expect(slow.status).toBe(200);
      expect(slow.elapsedMs).toBeGreaterThanOrEqual(2490);
      expect(finished).toEqual(["control", "rest"]);
    } finally {
      await embedded.clearFaults();
    }
    expect((await earnings()).status).toBe(200);
  });

  it("a new POST replaces the previous faults", async () => {
    await embedded.setFaults({ restErrorRate: 1, durationSeconds: 30 });
    await embedded.setFaults({ restLatencyMs: 1, durationSeconds: 30 });
    expect((await earnings()).status).toBe(200);
    await embedded.clearFaults();
  });

  it("faults lapse after durationSeconds", async () => {
    await embedded.setFaults({ restErrorRate: 1, durationSeconds: 2 });
    expect((await earnings()).status).toBe(500);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect((await earnings()).status).toBe(200);
  });

  it("refuses a malformed faults body with 400", async () => {
    for (const body of [
      {},
      { durationSeconds: 0 },
      { durationSeconds: 3601 },
      { restErrorRate: 2, durationSeconds: 5 },
      { restStatus: 418, durationSeconds: 5 },
      { restLatencyMs: 60001, durationSeconds: 5 },
      "not json",
    ]) {
      const answer = await request("POST", `${embedded.url}/__embedded/faults`, {}, body);
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ ok: false, errors: [{ code: "bad_request" }] });
    }
    expect((await earnings()).status).toBe(200);
  });
});

describe("embedded §7: stats", () => {
  let embedded: TestEmbedded;
  beforeAll(async () => {
    embedded = await startTestEmbedded();
  });
  afterAll(() => embedded.close());

  it("counts key-authenticated REST requests by path, not control routes, bad keys or unknown paths", async () => {
    expect(await embedded.stats()).toEqual({
      wsConnections: 0,
      restRequests: { total: 0, byPath: {}, byStatus: {} },
    });
    const auth = { authorization: "token demo" };
    await get(`${embedded.url}/api/v2.1/calendar/earnings?pagesize=1`, auth);
    await get(`${embedded.url}/api/v2.1/calendar/earnings?pagesize=2&page=1`, auth);
    await get(`${embedded.url}/api/v2.1/calendar/ma?pagesize=1`, auth);
    await get(`${embedded.url}/api/v2.1/calendar/ma?pagesize=0`, auth); // a 400 still reached the service
    await get(`${embedded.url}/api/v2.1/calendar/ma`); // no key
    await get(`${embedded.url}/nowhere`, auth);
    await get(`${embedded.url}/__embedded/stats`);
    expect(await embedded.stats()).toEqual({
      wsConnections: 0,
      restRequests: {
        total: 4,
        byPath: { "/api/v2.1/calendar/earnings": 2, "/api/v2.1/calendar/ma": 2 },
        byStatus: { "200": 3, "400": 1 },
      },
    });
  });

  it("answers ws/drop", async () => {
    const answer = await request("POST", `${embedded.url}/__embedded/ws/drop`);
    expect(answer.status).toBe(200);
  });
});

describe("embedded §7: control API only on loopback", () => {
  let server: ReturnType<typeof createServer>;
  let url: string;
  beforeAll(async () => {
    const handler = createRequestHandler({
      routes: controlRoutes({
        faults: new FaultState(),
        stats: new RequestStats(),
        wsConnections: () => 0,
        dropWebSockets: () => {},
      }),
      authorize: createAuthorizer(new Map()),
      rateLimiter: new RateLimiter(0),
      faults: new FaultState(),
      stats: new RequestStats(),
    });
    // The test can only connect over loopback, so it presents the peer as a LAN address.
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      Object.defineProperty(req.socket, "remoteAddress", { value: "192.168.1.20", configurable: true });
      handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("answers 403 to a non-loopback peer", async () => {
    for (const [method, path] of [
      ["GET", "/__embedded/stats"],
      ["POST", "/__embedded/faults"],
      ["DELETE", "/__embedded/faults"],
      ["POST", "/__embedded/ws/drop"],
    ] as const) {
      const answer = await request(
        method,
        url + path,
        {},
        method === "GET" ? undefined : { durationSeconds: 5 },
      );
      expect(answer.status).toBe(403);
      expect(answer.json).toEqual({ message: "control API is only available on loopback" });
    }
  });
});

describe("embedded §1: default plans on a transcripts route", () => {
  let server: ReturnType<typeof createServer>;
  let url: string;
  // The transcripts routes belong to the live service; a stand-in route proves the pipeline applies the plans.
  const transcriptsRoute = {
    method: "GET" as const,
    pattern: "/api/v1/transcripts/calls",
    product: "transcripts" as const,
    handle: () => ({ body: { data: [] } }),
  };
  beforeAll(async () => {
    const handler = createRequestHandler({
      routes: [transcriptsRoute],
      authorize: createAuthorizer(loadConfig({}).apiKeys),
      rateLimiter: new RateLimiter(0),
      faults: new FaultState(),
      stats: new RequestStats(),
    });
    server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/transcripts/calls`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("answers 403 to demo-calendars and 200 to demo", async () => {
    const forbidden = await get(url, { authorization: "token demo-calendars" });
    expect(forbidden.status).toBe(403);
    expect(forbidden.json).toEqual(FORBIDDEN);
    expect((await get(`${url}?token=demo-calendars`)).status).toBe(403);
    expect((await get(url, { authorization: "token demo" })).status).toBe(200);
  });
});
