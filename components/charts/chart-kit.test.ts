import { describe, expect, it } from "vitest";
import { labelIndexes, linearScale, monotonePath, niceTicks } from "./chart-kit";

describe("niceTicks", () => {
  it("covers the range with round steps", () => {
    expect(niceTicks(3, 97)).toEqual([0, 25, 50, 75, 100]);
    expect(niceTicks(0.12, 0.58)).toEqual([0, 0.2, 0.4, 0.6]);
    expect(niceTicks(1.2e9, 4.7e9)).toEqual([1e9, 2e9, 3e9, 4e9, 5e9]);
  });

  it("spans negative and positive values, zero included on the way", () => {
    const ticks = niceTicks(-40, 110);
    expect(ticks[0]).toBeLessThanOrEqual(-40);
    expect(ticks.at(-1)).toBeGreaterThanOrEqual(110);
    expect(ticks).toContain(0);
  });

  it("gives a flat series a band around its value", () => {
    const ticks = niceTicks(5, 5);
    expect(ticks[0]).toBeLessThan(5);
    expect(ticks.at(-1)).toBeGreaterThan(5);
  });

  it("keeps float noise out of the labels", () => {
    for (const t of niceTicks(0.1, 0.7)) expect(String(t).length).toBeLessThan(6);
  });
});

describe("linearScale", () => {
  it("maps the domain onto the range, inverted ranges included", () => {
    const y = linearScale(0, 100, 200, 0);
    expect(y(0)).toBe(200);
    expect(y(50)).toBe(100);
    expect(y(100)).toBe(0);
  });
});

describe("labelIndexes", () => {
  it("prints every label when they fit", () => {
    expect(labelIndexes(["a", "b", "c"], 600)).toEqual([0, 1, 2]);
  });

  it("thins crowded labels, always keeping the last", () => {
    const labels = Array.from({ length: 60 }, (_, i) => `Jan ${2000 + i}`);
    const shown = labelIndexes(labels, 300);
    expect(shown.at(-1)).toBe(59);
    expect(shown.length).toBeLessThan(10);
    const gaps = shown.slice(1).map((v, i) => v - shown[i]!);
    expect(new Set(gaps).size).toBe(1);
  });
});

describe("monotonePath", () => {
  it("draws one curve through the points, starting at the first", () => {
    const d = monotonePath([
      { x: 0, y: 10 },
      { x: 10, y: 20 },
      { x: 20, y: 5 },
    ]);
    expect(d.startsWith("M0,10C")).toBe(true);
    expect(d.endsWith(",20,5")).toBe(true);
    expect(d.match(/M/g)).toHaveLength(1);
  });

  it("breaks the line at gaps instead of drawing through them", () => {
    const d = monotonePath([{ x: 0, y: 1 }, { x: 1, y: 2 }, null, { x: 3, y: 4 }, { x: 4, y: 5 }]);
    expect(d.match(/M/g)).toHaveLength(2);
  });

  it("never overshoots a local extreme", () => {
    const d = monotonePath([
      { x: 0, y: 0 },
      { x: 10, y: 100 },
      { x: 20, y: 100 },
      { x: 30, y: 0 },
    ]);
    const ys = [...d.matchAll(/-?[\d.]+,(-?[\d.]+)/g)].map((m) => Number(m[1]));
    expect(Math.max(...ys)).toBeLessThanOrEqual(100);
    expect(Math.min(...ys)).toBeGreaterThanOrEqual(0);
  });

  it("draws nothing for no points", () => {
    expect(monotonePath([])).toBe("");
  });
});
