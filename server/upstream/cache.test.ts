import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { cacheKey, CACHE_POLICIES, ResponseCache, type CachePolicy } from "./cache";

const policy: CachePolicy = { freshMs: 60, swrMs: 200, staleIfErrorMs: 2000 };
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

function counter<T>(values: (() => T | Promise<T>)[]) {
  let calls = 0;
  const fetcher = async () => {
    const next = values[Math.min(calls, values.length - 1)]!;
    calls += 1;
    return next();
  };
  return { fetcher, calls: () => calls };
}

describe("ResponseCache", () => {
  it("normalises keys: parameter order and empty values do not matter", () => {
    expect(cacheKey("/p", { b: "2", a: 1, c: undefined, d: "" })).toBe(cacheKey("/p", { a: "1", b: 2 }));
    expect(cacheKey("/p", { a: 1 })).not.toBe(cacheKey("/q", { a: 1 }));
  });

  it("normalises symbol lists in keys: case, repeats and order do not make a new entry", () => {
    for (const name of ["symbols", "symbol", "parameters[tickers]"]) {
      expect(cacheKey("/p", { [name]: "msft,AAPL,msft, nwsc" })).toBe(
        cacheKey("/p", { [name]: "AAPL,MSFT,NWSC" }),
      );
    }
    // Other values are data, not sets: kept as they are.
    expect(cacheKey("/p", { to: "b,a" })).not.toBe(cacheKey("/p", { to: "a,b" }));
  });

  it("serves a fresh entry without calling the upstream", async () => {
    const cache = new ResponseCache();
    const { fetcher, calls } = counter([() => "v1"]);
    const a = await cache.get("k", policy, fetcher);
    const b = await cache.get("k", policy, fetcher);
    expect(a).toMatchObject({ value: "v1", stale: false });
    expect(b).toEqual(a);
    expect(calls()).toBe(1);
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 1, fetches: 1 });
  });

  it("stale-while-revalidate: serves the old value at once and refreshes in the background", async () => {
    const cache = new ResponseCache();
    const { fetcher, calls } = counter([() => "v1", () => "v2"]);
    await cache.get("k", policy, fetcher);
    await wait(policy.freshMs + 20);
    const served = await cache.get("k", policy, fetcher);
    expect(served).toMatchObject({ value: "v1", stale: false });
    await wait(10);
    expect(calls()).toBe(2);
    expect((await cache.get("k", policy, fetcher)).value).toBe("v2");
    expect(cache.stats().staleWhileRevalidate).toBe(1);
  });

  it("stale-if-error: past the SWR window a failing upstream yields the old copy marked stale", async () => {
    const cache = new ResponseCache();
    const { fetcher } = counter<string>([
      () => "v1",
      () => {
        throw new AppError("upstream_error", "down");
      },
    ]);
    const first = await cache.get("k", policy, fetcher);
    await wait(policy.swrMs + 20);
    const served = await cache.get("k", policy, fetcher);
    expect(served).toEqual({ value: "v1", fetchedAt: first.fetchedAt, stale: true });
    expect(cache.stats().staleIfError).toBe(1);
  });

  it("stale-if-error has a limit: beyond it the error surfaces", async () => {
    const cache = new ResponseCache();
    const tight: CachePolicy = { freshMs: 10, swrMs: 20, staleIfErrorMs: 60 };
    const { fetcher } = counter<string>([
      () => "v1",
      () => {
        throw new AppError("upstream_timeout", "slow");
      },
    ]);
    await cache.get("k", tight, fetcher);
    await wait(100);
    await expect(cache.get("k", tight, fetcher)).rejects.toMatchObject({ status: 504 });
  });

  it("does not hide 4xx errors behind a stale copy", async () => {
    const cache = new ResponseCache();
    const { fetcher } = counter<string>([
      () => "v1",
      () => {
        throw new AppError("not_found", "gone");
      },
    ]);
    await cache.get("k", policy, fetcher);
    await wait(policy.swrMs + 20);
    await expect(cache.get("k", policy, fetcher)).rejects.toMatchObject({ status: 404 });
  });

  it("single-flight: 100 concurrent identical requests cost one fetch", async () => {
    const cache = new ResponseCache();
    const { fetcher, calls } = counter([() => wait(50).then(() => "v")]);
    const results = await Promise.all(Array.from({ length: 100 }, () => cache.get("k", policy, fetcher)));
    expect(calls()).toBe(1);
    expect(new Set(results.map((r) => r.value))).toEqual(new Set(["v"]));
    expect(cache.stats()).toMatchObject({ fetches: 1, coalesced: 99 });
  });

  it("single-flight shares failures too, and does not cache them", async () => {
    const cache = new ResponseCache();
    const { fetcher, calls } = counter<string>([
      () =>
        wait(20).then(() => {
          throw new AppError("upstream_error", "down");
        }),
      () => "v2",
    ]);
    const settled = await Promise.allSettled(
      Array.from({ length: 10 }, () => cache.get("k", policy, fetcher)),
    );
    expect(settled.every((s) => s.status === "rejected")).toBe(true);
    expect(calls()).toBe(1);
    expect((await cache.get("k", policy, fetcher)).value).toBe("v2");
  });

  it("a caller that aborts stops waiting without cancelling the shared fetch for the others", async () => {
    const cache = new ResponseCache();
    const { fetcher, calls } = counter([() => wait(60).then(() => "v")]);
    const controller = new AbortController();
    const leaving = cache.get("k", policy, fetcher, { signal: controller.signal });
    const staying = cache.get("k", policy, fetcher);
    controller.abort();
    await expect(leaving).rejects.toMatchObject({ status: 499 });
    await expect(staying).resolves.toMatchObject({ value: "v" });
    expect(calls()).toBe(1);
  });

  it("serves an answer larger than its entry limit without keeping it", async () => {
    const cache = new ResponseCache({ maxEntryBytes: 64 * 1024 });
    const big = {
      rows: Array.from({ length: 2_000 }, (_, i) => ({ i, text: `row ${i} of a large answer` })),
    };
    const { fetcher, calls } = counter([() => big, () => big]);
    expect((await cache.get("k", policy, fetcher)).value).toBe(big);
    expect((await cache.get("k", policy, fetcher)).value).toBe(big);
    expect(calls()).toBe(2);
    expect(cache.stats()).toMatchObject({ size: 0, bytes: 0, tooLarge: 2 });
  });
});

describe("ResponseCache memory", () => {
  setFlagsFromString("--expose_gc");
  const gc = runInNewContext("gc") as () => void;
  const MB = 1024 * 1024;

  /** About 1.5 MB of heap, shaped like a mapped balance sheet: rows of numbers and short strings. */
  function largeAnswer(n: number) {
    return Array.from({ length: 25 }, (_, s) => ({
      symbol: `S${s}`,
      balanceSheet: Array.from({ length: 40 }, (_, r) => ({
        fiscalYear: 2000 + r,
        fiscalPeriod: `Q${(r % 4) + 1}`,
        reportDate: `2026-01-${String((r % 28) + 1).padStart(2, "0")}`,
        ...Object.fromEntries(
          Array.from({ length: 20 }, (_, f) => [`item${f}`, n * 1e9 + s * 1e6 + r * 1e3 + f + 0.5]),
        ),
      })),
    }));
  }

  it("stays within its byte budget (plus a margin) through hundreds of distinct large answers", async () => {
    const budget = 24 * MB;
    const cache = new ResponseCache({ maxBytes: budget, maxEntryBytes: 2 * MB });
    gc();
    const before = process.memoryUsage().heapUsed;
    // A signed-in user varying `to=`: every answer distinct, each well under the entry limit.
    for (let i = 0; i < 300; i += 1) {
      const key = cacheKey("/api/v3/fundamentals/balance-sheet", { symbols: "NWSC", to: `2026-01-${i}` });
      await cache.get(key, CACHE_POLICIES.fundamentals, async () => largeAnswer(i));
    }
    gc();
    const grownBytes = process.memoryUsage().heapUsed - before;
    expect(grownBytes).toBeLessThan(budget + 16 * MB);
    expect(cache.stats().bytes).toBeLessThanOrEqual(budget);
    expect(cache.stats().size).toBeGreaterThan(5);
  });
});
