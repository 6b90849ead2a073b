import { describe, expect, it } from "vitest";
import { estimateBytes } from "./value-size";

describe("estimateBytes", () => {
  it("grows with the data: more rows, longer strings, wider characters", () => {
    const rows = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ id: i, total: i + 0.5, name: `row ${i}` }));
    expect(estimateBytes(rows(200))).toBeGreaterThan(1.9 * estimateBytes(rows(100)));
    expect(estimateBytes("x".repeat(1_000))).toBeGreaterThan(estimateBytes("x".repeat(10)) + 900);
    expect(estimateBytes("é".repeat(100))).toBeLessThan(estimateBytes("€".repeat(100)));
  });

  it("counts a value reached twice once, and survives a cycle", () => {
    const shared = { text: "y".repeat(10_000) };
    expect(estimateBytes([shared, shared])).toBeLessThan(estimateBytes([shared, { ...shared }]));
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(estimateBytes(cyclic)).toBeGreaterThan(0);
  });

  it("stops soon after passing its limit instead of walking the whole value", () => {
    const huge = Array.from({ length: 200_000 }, (_, i) => ({ i: i + 0.5, s: `value ${i}` }));
    const full = estimateBytes(huge);
    const bounded = estimateBytes(huge, 100_000);
    expect(bounded).toBeGreaterThan(100_000);
    expect(bounded).toBeLessThan(full / 2);
  });
});
