import { describe, expect, it } from "vitest";
import { downsample, MAX_CHART_POINTS, sentimentSeries } from "./sentiment-series";

describe("sentimentSeries", () => {
  it("skips unscored segments and keeps a trailing mean over scored ones", () => {
    const points = sentimentSeries(
      [
        { startMs: 0, sentiment: 1 },
        { startMs: 1000, sentiment: null },
        { startMs: 2000, sentiment: 0 },
        { startMs: 3000, sentiment: -1 },
      ],
      2,
    );
    expect(points).toEqual([
      { t: 0, value: 1, mean: 1 },
      { t: 2, value: 0, mean: 0.5 },
      { t: 3, value: -1, mean: -0.5 },
    ]);
  });
});

describe("downsample", () => {
  const series = Array.from({ length: 10_000 }, (_, i) => ({ t: i, value: Math.sin(i / 50) }));

  it("returns small series unchanged", () => {
    const small = series.slice(0, 10);
    expect(downsample(small, 20)).toEqual(small);
  });

  it("caps a long series at the limit, keeping first and last points in order", () => {
    const out = downsample(series);
    expect(out).toHaveLength(MAX_CHART_POINTS);
    expect(out[0]).toBe(series[0]);
    expect(out.at(-1)).toBe(series.at(-1));
    for (let i = 1; i < out.length; i++) expect(out[i]!.t).toBeGreaterThan(out[i - 1]!.t);
  });

  it("keeps an isolated spike that averaging would flatten", () => {
    const flat = Array.from({ length: 1_000 }, (_, i) => ({ t: i, value: i === 437 ? 1 : 0 }));
    expect(downsample(flat, 50).some((p) => p.value === 1)).toBe(true);
  });
});
