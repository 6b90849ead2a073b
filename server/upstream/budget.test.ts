import { describe, expect, it } from "vitest";
import { UpstreamBudget, currentLane, inBackground } from "./budget";

/** A budget on a fake clock: sleeping advances it. */
function fakeBudget(options: { ratePerSecond: number; limitPerSecond: number }) {
  let now = 1_000_000;
  const budget = new UpstreamBudget({
    ...options,
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
  });
  return { budget, now: () => now, advance: (ms: number) => (now += ms) };
}

describe("UpstreamBudget", () => {
  it("spaces background requests to the configured rate", async () => {
    const { budget, now } = fakeBudget({ ratePerSecond: 20, limitPerSecond: 50 });
    const start = now();
    for (let i = 0; i < 41; i += 1) await budget.admit("background");
    // 41 requests at 20 per second: the 41st goes 2 s after the first.
    expect(now() - start).toBeGreaterThanOrEqual(2_000);
    expect(now() - start).toBeLessThan(2_100);
  });

  it("never makes the user's requests wait, and holds the background while users need their share", async () => {
    const { budget, now } = fakeBudget({ ratePerSecond: 20, limitPerSecond: 50 });
    const start = now();
    for (let i = 0; i < 40; i += 1) await budget.admit("user");
    expect(now()).toBe(start);
    await budget.admit("background");
    // 40 user requests in the last second + 20 background would pass the limit of 50: wait for the window.
    expect(now() - start).toBeGreaterThanOrEqual(1_000);
  });

  it("halves the background rate on a 429 and pauses it for Retry-After, then recovers", async () => {
    const { budget, now, advance } = fakeBudget({ ratePerSecond: 20, limitPerSecond: 50 });
    await budget.admit("background");
    budget.rateLimited("user", 3);
    expect(budget.snapshot()).toMatchObject({ ratePerSecond: 10, rateLimited: { user: 1, background: 0 } });
    const before = now();
    await budget.admit("background");
    expect(now() - before).toBeGreaterThanOrEqual(3_000);
    advance(60_000);
    await budget.admit("background");
    expect(budget.snapshot().ratePerSecond).toBe(20);
  });

  it("tells the lane from the caller's context, however deep", async () => {
    expect(currentLane()).toBe("user");
    const seen = await inBackground(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return currentLane();
    });
    expect(seen).toBe("background");
    expect(currentLane()).toBe("user");
  });
});
