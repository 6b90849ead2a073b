import { describe, expect, it } from "vitest";
import { AnswerStore, STALE_LIMIT_SECONDS } from "./answer-store";

describe("AnswerStore statistics (what /api/metrics reports)", () => {
  it("counts each lookup once by what it found: fresh, stale within the limit, or nothing", () => {
    let now = 1_000_000;
    const store = new AnswerStore({ now: () => now });
    expect(store.lookup("/api/a")).toBeUndefined();
    store.put("/api/a", Buffer.from("{}"), { "content-type": "application/json" }, 10);
    expect(store.lookup("/api/a")?.fresh).toBe(true);
    now += 10_000;
    expect(store.lookup("/api/a")?.fresh).toBe(false);
    now += STALE_LIMIT_SECONDS * 1000;
    // Past the stale limit the answer is dropped: a miss, and no longer held.
    expect(store.lookup("/api/a")).toBeUndefined();
    expect(store.stats()).toMatchObject({ hits: 1, stale: 1, misses: 2, stores: 1, size: 0 });
  });

  it("reports the entries and bytes it holds", () => {
    const store = new AnswerStore();
    store.put("/api/a", Buffer.alloc(1_000), {}, 10);
    store.put("/api/b", Buffer.alloc(2_000), {}, 10);
    const { size, bytes } = store.stats();
    expect(size).toBe(2);
    expect(bytes).toBeGreaterThanOrEqual(3_000);
  });
});
