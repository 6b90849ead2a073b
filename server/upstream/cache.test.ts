import { describe, expect, it } from "vitest";
import { AppError } from "../http/errors";
import { cacheKey, ResponseCache, type CachePolicy } from "./cache";

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
        throw new AppError(502, "upstream_error", "down");
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
        throw new AppError(504, "upstream_timeout", "slow");
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
        throw new AppError(404, "not_found", "gone");
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
          throw new AppError(502, "upstream_error", "down");
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
});
