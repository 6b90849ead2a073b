/** The REST cache shared through Redis: one upstream call for identical concurrent requests on different instances. */
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CACHE_POLICIES, ResponseCache } from "@/server/upstream/cache";
import { RedisResponseStore } from "@/server/scale/redis-cache-store";
import { startTestRedis, type TestRedis } from "./redis-server";

let redis: TestRedis;
const clients: Redis[] = [];

function instance(): ResponseCache {
  const c = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  c.on("error", () => {});
  clients.push(c);
  return new ResponseCache({ shared: new RedisResponseStore(c) });
}

beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  for (const c of clients) c.disconnect();
  await redis?.stop();
});

describe("shared response cache", () => {
  it("costs one upstream call for identical concurrent requests on two instances, then serves both from it", async () => {
    const [one, two] = [instance(), instance()];
    let calls = 0;
    const fetcher = async () => {
      calls += 1;
      await new Promise((r) => setTimeout(r, 200));
      return { rows: [1, 2, 3] };
    };
    const results = await Promise.all([
      ...Array.from({ length: 5 }, () => one.get("/calendar?x=1", CACHE_POLICIES.calendar, fetcher)),
      ...Array.from({ length: 5 }, () => two.get("/calendar?x=1", CACHE_POLICIES.calendar, fetcher)),
    ]);
    expect(calls).toBe(1);
    for (const r of results) expect(r.value).toEqual({ rows: [1, 2, 3] });
    // A third instance, started later, is served from Redis.
    expect((await instance().get("/calendar?x=1", CACHE_POLICIES.calendar, fetcher)).value).toEqual({
      rows: [1, 2, 3],
    });
    expect(calls).toBe(1);
  });

  it("lets a waiting instance fetch itself when the lock holder fails", async () => {
    const [one, two] = [instance(), instance()];
    let calls = 0;
    const failing = async () => {
      calls += 1;
      await new Promise((r) => setTimeout(r, 100));
      throw new Error("upstream down");
    };
    const working = async () => {
      calls += 1;
      return "ok";
    };
    const [a, b] = await Promise.allSettled([
      one.get("/k", CACHE_POLICIES.calendar, failing),
      (async () => {
        await new Promise((r) => setTimeout(r, 20));
        return two.get("/k", CACHE_POLICIES.calendar, working);
      })(),
    ]);
    expect(a.status).toBe("rejected");
    expect(b.status === "fulfilled" && b.value.value).toBe("ok");
    expect(calls).toBe(2);
  });

  it("bounds Redis by bytes: the stored answers stay within the budget, and one over the entry limit is not stored", async () => {
    const c = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    c.on("error", () => {});
    clients.push(c);
    const budget = 1024 * 1024;
    const store = new RedisResponseStore(c, { maxBytes: budget, maxEntryBytes: 200 * 1024 });
    const cache = new ResponseCache({ shared: store });
    const answer = (i: number) => ({
      i,
      rows: Array.from({ length: 1_000 }, (_, r) => `row ${r} of answer ${i}`),
    });
    for (let i = 0; i < 100; i += 1) {
      await cache.get(`/bounded?to=${i}`, CACHE_POLICIES.fundamentals, async () => answer(i));
    }
    const keys = await c.keys("callroom:cache:/bounded*");
    const stored = await Promise.all(keys.map((k) => c.strlen(k)));
    const total = stored.reduce((a, b) => a + b, 0);
    expect(total).toBeLessThanOrEqual(budget);
    expect(keys.length).toBeGreaterThan(10);
    // The most recent answers are the ones kept.
    expect(keys).toContain("callroom:cache:/bounded?to=99");

    const huge = { rows: Array.from({ length: 20_000 }, (_, r) => `row ${r} of a huge answer`) };
    const served = await cache.get("/bounded-huge", CACHE_POLICIES.fundamentals, async () => huge);
    expect(served.value).toEqual(huge);
    expect(await c.exists("callroom:cache:/bounded-huge")).toBe(0);
  });
});
