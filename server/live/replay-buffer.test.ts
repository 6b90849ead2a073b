import { describe, expect, it } from "vitest";
import { ReplayBuffer } from "./replay-buffer";

describe("ReplayBuffer", () => {
  it("hands out dense sequence numbers and replays what followed a given one", () => {
    const b = new ReplayBuffer<string>(5);
    expect(b.head).toBe(0);
    expect(["a", "b", "c"].map((x) => b.push(x))).toEqual([1, 2, 3]);
    expect(b.since(1)).toEqual({
      ok: true,
      items: [
        { seq: 2, item: "b" },
        { seq: 3, item: "c" },
      ],
    });
    expect(b.since(3)).toEqual({ ok: true, items: [] });
    expect(b.since(0)).toEqual({
      ok: true,
      items: [
        { seq: 1, item: "a" },
        { seq: 2, item: "b" },
        { seq: 3, item: "c" },
      ],
    });
  });

  it("wraps around, keeping only the newest `capacity` items", () => {
    const b = new ReplayBuffer<number>(4);
    for (let i = 1; i <= 10; i += 1) b.push(i * 10);
    expect(b.size).toBe(4);
    expect(b.oldest).toBe(7);
    expect(b.since(6)).toEqual({
      ok: true,
      items: [
        { seq: 7, item: 70 },
        { seq: 8, item: 80 },
        { seq: 9, item: 90 },
        { seq: 10, item: 100 },
      ],
    });
    expect(b.since(8)).toEqual({
      ok: true,
      items: [
        { seq: 9, item: 90 },
        { seq: 10, item: 100 },
      ],
    });
  });

  it("refuses a cursor whose successors were overwritten (too old) or that was never issued (ahead)", () => {
    const b = new ReplayBuffer<number>(4);
    for (let i = 1; i <= 10; i += 1) b.push(i);
    expect(b.since(5)).toEqual({ ok: false, reason: "too_old" });
    expect(b.since(0)).toEqual({ ok: false, reason: "too_old" });
    expect(b.since(11)).toEqual({ ok: false, reason: "ahead" });
  });

  it("rejects a nonsensical capacity", () => {
    expect(() => new ReplayBuffer(0)).toThrow(RangeError);
  });
});
