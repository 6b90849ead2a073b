// The scheduler's lanes on a fake clock: staggered first calls, realignment after calls that over- or under-run,
// replacement on another company, and retries when a start fails.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Universe } from "../universe/types";
import { Scheduler } from "./scheduler";
import { testCompany } from "../test/fixtures/companies";

interface Started {
  symbol: string;
  durationSeconds: number;
  at: number;
  done: () => void;
}

const SYMBOLS = Array.from({ length: 30 }, (_, i) => `S${String(i).padStart(2, "0")}`);
const universe = { companies: SYMBOLS.map((symbol) => testCompany({ symbol })) } as unknown as Universe;

function harness(lanes: number, callSeconds: number, fail?: (n: number) => "throw" | "reject" | null) {
  const started: Started[] = [];
  const live = new Set<string>();
  let attempts = 0;
  const scheduler = new Scheduler({
    lanes,
    callSeconds,
    universe,
    now: () => Date.now(),
    liveSymbols: () => new Set(live),
    start: (company, durationSeconds, onDone) => {
      const verdict = fail?.(attempts++) ?? null;
      if (verdict === "throw") throw new Error("boom");
      if (verdict === "reject") return Promise.reject(new Error("no record"));
      live.add(company.symbol);
      started.push({
        symbol: company.symbol,
        durationSeconds,
        at: Date.now(),
        done: () => {
          live.delete(company.symbol);
          onDone();
        },
      });
      return Promise.resolve();
    },
  });
  return { scheduler, started, live };
}

beforeEach(() => {
  vi.useFakeTimers({ now: new Date("2026-11-02T15:00:00Z") });
  vi.spyOn(console, "error").mockImplementation(() => undefined);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("Scheduler", () => {
  it("starts N lanes a little apart, first calls ending (N − j)/N of the call length after start-up", () => {
    const { scheduler, started, live } = harness(3, 600);
    scheduler.start();
    vi.advanceTimersByTime(10_000);
    expect(started.map((s) => s.durationSeconds)).toEqual([600, 398, 196]);
    expect(new Set(started.map((s) => s.at)).size).toBe(3);
    expect(live.size).toBe(3);
    // Ends (start + duration) are L/N apart: spread, not all at once.
    const ends = started.map((s) => s.at + s.durationSeconds * 1000).sort((a, b) => a - b);
    expect(ends[1]! - ends[0]!).toBe(200_000);
    expect(ends[2]! - ends[1]!).toBe(200_000);
    scheduler.stop();
  });

  it("replaces a completed call at once, on another company, with a full-length call", () => {
    const { scheduler, started, live } = harness(2, 60);
    scheduler.start();
    vi.advanceTimersByTime(2_000);
    expect(started).toHaveLength(2);
    vi.advanceTimersByTime(28_000);
    const second = started[1]!;
    second.done();
    // No timer in between: the replacement is live in the same turn.
    expect(started).toHaveLength(3);
    expect(live.size).toBe(2);
    expect(started[2]!.symbol).not.toBe(second.symbol);
    expect(started[2]!.symbol).not.toBe(started[0]!.symbol);
    expect(started[2]!.durationSeconds).toBe(60);
    scheduler.stop();
  });

  it("realigns a lane: an overrun is followed by a shorter call, an early end by a longer one", () => {
    const { scheduler, started } = harness(1, 100);
    scheduler.start();
    vi.advanceTimersByTime(0);
    expect(started[0]!.durationSeconds).toBe(100);
    vi.advanceTimersByTime(130_000); // 30 s over
    started[0]!.done();
    expect(started[1]!.durationSeconds).toBe(70);
    vi.advanceTimersByTime(50_000); // 20 s early
    started[1]!.done();
    expect(started[2]!.durationSeconds).toBe(120);
    // Far behind: whole slots are skipped rather than starting a stub call.
    vi.advanceTimersByTime(400_000);
    started[2]!.done();
    expect(started[3]!.durationSeconds).toBeGreaterThanOrEqual(50);
    expect(started[3]!.durationSeconds).toBeLessThanOrEqual(150);
    scheduler.stop();
  });

  it("never asks for less than 10 s", () => {
    const { scheduler, started } = harness(20, 60);
    scheduler.start();
    vi.advanceTimersByTime(60_000);
    expect(Math.min(...started.map((s) => s.durationSeconds))).toBe(10);
    scheduler.stop();
  });

  it("retries a start that throws or rejects, and stops cleanly", async () => {
    const { scheduler, started } = harness(1, 60, (n) => (n === 0 ? "throw" : n === 1 ? "reject" : null));
    scheduler.start();
    vi.advanceTimersByTime(0);
    expect(started).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(started).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(started).toHaveLength(1);
    scheduler.stop();
    started[0]!.done();
    expect(started).toHaveLength(1);
  });
});
