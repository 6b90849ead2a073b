import { describe, expect, it } from "vitest";
import { followedFirst } from "./use-followed-first";

describe("followedFirst", () => {
  it("puts followed companies first and keeps each group's order", () => {
    const calls = ["AAA", "bbb", "CCC", "DDD", "BBB"].map((symbol, i) => ({ symbol, i }));
    expect(followedFirst(calls, new Set(["BBB", "DDD"])).map((c) => c.i)).toEqual([1, 3, 4, 0, 2]);
    expect(followedFirst(calls, new Set()).map((c) => c.i)).toEqual([0, 1, 2, 3, 4]);
  });
});
