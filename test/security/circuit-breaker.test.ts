import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { GET as getEarnings } from "@/app/api/calendar/earnings/route";
import { GET as getMetrics } from "@/app/api/metrics/route";
import { startTestEmbedded, type TestEmbedded } from "@/embedded/test/harness";
import { AppError } from "@/server/errors";
import { CircuitBreaker } from "@/server/security/circuit-breaker";
import { guardUpstreamCall } from "@/server/security/upstream-guard";
import { ResponseCache } from "@/server/upstream/cache";
import { clearUpstreamEnv, setUpstreamEnv } from "@/test/support/upstream-env";
import { getRuntime } from "@/server/runtime";

const failure = () => Promise.reject(new AppError("upstream_error", "failed"));
const ok = () => Promise.resolve("ok");

describe("CircuitBreaker", () => {
  it("opens after N consecutive failures, fails fast with 503 + Retry-After, probes once after the cool-down", async () => {
    let now = 0;
    const breaker = new CircuitBreaker({
      consecutiveFailures: 3,
      failureRate: 0.5,
      minCalls: 100,
      windowMs: 10_000,
      cooldownMs: 5_000,
      now: () => now,
    });
    const guard = <T>(call: () => Promise<T>) => guardUpstreamCall(breaker, undefined, call);
    for (let i = 0; i < 3; i += 1)
      await expect(guard(failure)).rejects.toMatchObject({ code: "upstream_error" });
    expect(breaker.state).toBe("open");
    const calls = vi.fn(ok);
    await expect(guard(calls)).rejects.toMatchObject({
      status: 503,
      code: "upstream_unavailable",
      retryAfterSeconds: 5,
    });
    expect(calls).not.toHaveBeenCalled();

    now = 5_000;
    expect(breaker.state).toBe("half_open");
    let finishProbe!: (v: string) => void;
    const probe = guard(() => new Promise<string>((r) => (finishProbe = r)));
    // While the probe is out, everyone else still fails fast.
    await expect(guard(ok)).rejects.toMatchObject({ code: "upstream_unavailable" });
    finishProbe("fine");
    await expect(probe).resolves.toBe("fine");
    expect(breaker.state).toBe("closed");
    await expect(guard(ok)).resolves.toBe("ok");
  });

  it("opens on a failure rate over the window, and a failed probe re-opens it", async () => {
    let now = 0;
    const breaker = new CircuitBreaker({
      consecutiveFailures: 100,
      failureRate: 0.5,
      minCalls: 10,
      windowMs: 10_000,
      cooldownMs: 1_000,
      now: () => now,
    });
    const guard = <T>(call: () => Promise<T>) => guardUpstreamCall(breaker, undefined, call);
    for (let i = 0; i < 10; i += 1) await guard(i % 2 ? ok : failure).catch(() => undefined);
    expect(breaker.state).toBe("open");
    now += 1_000;
    await expect(guard(failure)).rejects.toMatchObject({ code: "upstream_error" });
    expect(breaker.state).toBe("open");
    expect(breaker.stats().opens).toBe(2);
  });

  it("does not count cancellations, rate limits or auth answers as failures", async () => {
    const breaker = new CircuitBreaker({
      consecutiveFailures: 2,
      failureRate: 1,
      minCalls: 100,
      windowMs: 1000,
      cooldownMs: 1000,
    });
    const guard = <T>(call: () => Promise<T>) => guardUpstreamCall(breaker, undefined, call);
    for (const code of [
      "client_closed_request",
      "upstream_rate_limited",
      "upstream_auth",
      "upstream_plan",
    ] as const) {
      for (let i = 0; i < 3; i += 1) {
        await guard(() => Promise.reject(new AppError(code, "x"))).catch(() => undefined);
      }
    }
    expect(breaker.state).toBe("closed");
  });
});

describe("upstream outage against the embedded service", () => {
  let embedded: TestEmbedded;
  let clockOffsetMs = 0;
  beforeAll(async () => {
    embedded = await startTestEmbedded();
  });
  afterAll(async () => {
    await embedded?.close();
    getRuntime().upstream.cache.clear();
    clearUpstreamEnv();
  });
  beforeEach(() => {
    // The runtime's cache, with a clock the test can move.
    setUpstreamEnv(
      { UPSTREAM_BASE_URL: embedded.url, UPSTREAM_API_KEY: embedded.key, UPSTREAM_MODE: "embedded" },
      { cache: new ResponseCache({ now: () => Date.now() + clockOffsetMs }) },
    );
  });

  it("serves stale data flagged with its age while the breaker opens and then fails fast", async () => {
    const url = "http://localhost/api/calendar/earnings?pageSize=5";
    const fresh = await getEarnings(new Request(url));
    expect(fresh.status).toBe(200);
    const freshBody = (await fresh.json()) as { meta: { fetchedAt: string; stale: boolean } };
    expect(freshBody.meta.stale).toBe(false);

    // Ten minutes later (past fresh and stale-while-revalidate), the upstream fails every request.
    clockOffsetMs = 10 * 60_000;
    await embedded.setFaults({ restErrorRate: 1, restStatus: 503, durationSeconds: 60 });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      const response = await getEarnings(new Request(url));
      statuses.push(response.status);
      const body = (await response.json()) as { meta: { fetchedAt: string; stale: boolean } };
      expect(body.meta).toMatchObject({ stale: true, fetchedAt: freshBody.meta.fetchedAt });
      expect(response.headers.get("cache-control")).toBe("no-store");
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(getRuntime().breakers.upstream.state).toBe("open");

    // Fail fast: no more requests reach the struggling service while open.
    const before = (await embedded.stats()).restRequests.total;
    for (let i = 0; i < 5; i += 1) expect((await getEarnings(new Request(url))).status).toBe(200);
    expect((await embedded.stats()).restRequests.total).toBe(before);

    // Uncached data has nothing stale to fall back on: our 503 with Retry-After, no upstream detail.
    const uncached = await getEarnings(new Request("http://localhost/api/calendar/earnings?pageSize=7"));
    expect(uncached.status).toBe(503);
    expect(uncached.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await uncached.json()).error.code).toBe("upstream_unavailable");

    const metrics = await (await getMetrics(new Request("http://localhost/api/metrics"))).text();
    expect(metrics).toMatch(/^callroom_upstream_breaker_state 2$/m);
    expect(metrics).toMatch(/callroom_cache_requests\{result="stale_if_error"\} [1-9]/);
    await embedded.clearFaults();
  });
});
