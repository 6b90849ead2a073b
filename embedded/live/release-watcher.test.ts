import { describe, expect, it } from "vitest";
import type { HistoryEntry } from "./call-store";
import { ReleaseWatcher } from "./release-watcher";

const entry = (callId: string, startMs: number) => ({ callId, startTime: new Date(startMs) }) as HistoryEntry;

describe("ReleaseWatcher", () => {
  it("starts each call once, only those whose start passes after it began", async () => {
    let now = 1_000_000;
    const calls = [entry("before", 999_000), entry("a", 1_000_500), entry("b", 1_002_000)];
    const running = new Set<string>();
    const started: string[] = [];
    const watcher = new ReleaseWatcher({
      now: () => now,
      intervalMs: 1000,
      due: (from, to) => calls.filter((c) => c.startTime.getTime() > from && c.startTime.getTime() <= to),
      isRunning: (id) => running.has(id),
      start: async (e) => {
        started.push(e.callId);
        running.add(e.callId);
      },
    });
    expect(watcher.check()).toEqual([]);
    now = 1_001_000;
    expect(watcher.check()).toEqual(["a"]);
    expect(watcher.check()).toEqual([]);
    now = 1_005_000;
    expect(watcher.check()).toEqual(["b"]);
    await Promise.resolve();
    expect(started).toEqual(["a", "b"]);
  });
});
