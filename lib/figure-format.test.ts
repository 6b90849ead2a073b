import { describe, expect, it } from "vitest";
import type { Change, Figure } from "@/lib/schemas/insights";
import {
  changeSummary,
  consensusPhrase,
  distinctFigures,
  figureName,
  formatFigure,
  formatFigureValue,
  groupChanges,
} from "./figure-format";

const figure = (over: Partial<Figure>): Figure => ({
  id: "0:0",
  metric: "revenue",
  segment: null,
  kind: "level",
  value: 4.2e9,
  unit: "usd",
  scale: "billion",
  period: "quarter",
  basis: null,
  isGuidance: false,
  isApproximate: false,
  sequence: 0,
  startMs: 0,
  quote: "$4.2 billion",
  confidence: 0.9,
  ...over,
});

describe("insight formatting", () => {
  it("writes each unit the way the calendar does", () => {
    expect(formatFigureValue(4.2e9, "usd")).toBe("$4.20B");
    expect(formatFigureValue(-0.12, "usd_per_share")).toBe("−$0.12");
    expect(formatFigureValue(45.2, "percent")).toBe("45.2%");
    expect(formatFigureValue(12, "percent", true)).toBe("+12%");
    expect(formatFigureValue(-90, "bps", true)).toBe("−90 bp");
  });

  it("names a figure with its kind and, when not this quarter's, its period", () => {
    expect(figureName(figure({}))).toBe("Revenue");
    expect(figureName(figure({ kind: "change", unit: "percent" }))).toBe("Revenue growth");
    expect(figureName(figure({ metric: "gross_margin", kind: "change", unit: "bps" }))).toBe(
      "Gross margin change",
    );
    expect(figureName(figure({ metric: "eps", period: "prior_year_quarter" }))).toBe("EPS (a year ago)");
    expect(figureName(figure({ metric: "segment_revenue", segment: "Cloud" }))).toBe("Cloud revenue");
  });

  it("writes a range by its ends", () => {
    expect(formatFigure(figure({ low: 4.3e9, high: 4.5e9, value: 4.4e9 }))).toBe("$4.30B – $4.50B");
  });

  it("says how guidance compares with the next quarter's consensus", () => {
    expect(consensusPhrase(figure({ isGuidance: true, surprisePercent: -3.02 }))).toBe(
      "guides revenue 3.0% below consensus",
    );
    expect(consensusPhrase(figure({ surprisePercent: 2.756 }))).toBe("beat consensus by 2.8%");
    expect(consensusPhrase(figure({}))).toBeNull();
  });
});

describe("distinctFigures", () => {
  it("lists a repeated statement once, at its first mention, with how often it was said", () => {
    const rows = distinctFigures([
      figure({ id: "3:0", sequence: 3 }),
      figure({ id: "9:0", sequence: 9, value: 1.99, metric: "eps", unit: "usd_per_share" }),
      figure({ id: "20:0", sequence: 20 }),
    ]);
    expect(rows.map((r) => [r.figure.sequence, r.times])).toEqual([
      [3, 2],
      [9, 1],
    ]);
  });
});

const change = (over: Partial<Change>): Change => ({
  id: "x",
  kind: "figure_up",
  sequence: 3,
  startMs: 0,
  text: "now",
  previousSequence: 4,
  previousStartMs: 0,
  previousText: "then",
  similarity: 1,
  metric: "revenue",
  unit: "usd",
  before: 3.9e9,
  after: 4.2e9,
  fromWord: null,
  toWord: null,
  topic: null,
  ...over,
});

describe("changes", () => {
  it("names a movement as growth or change, a level by its metric", () => {
    expect(changeSummary(change({}))).toBe("Revenue $3.90B → $4.20B");
    expect(changeSummary(change({ unit: "percent", before: 5, after: -2.7, kind: "figure_down" }))).toBe(
      "Revenue growth +5% → −2.7%",
    );
    expect(changeSummary(change({ metric: "gross_margin", unit: "percent", before: 44.1, after: 45 }))).toBe(
      "Gross margin 44.1% → 45%",
    );
    expect(
      changeSummary(
        change({ kind: "intensity_down", metric: null, unit: null, fromWord: "strong", toWord: "modest" }),
      ),
    ).toBe("“strong” → “modest”");
  });

  it("puts changes read off the same pair of sentences in one row", () => {
    const groups = groupChanges([
      change({ id: "a" }),
      change({ id: "b", unit: "percent" }),
      change({ id: "c", sequence: 9 }),
      change({ id: "d", kind: "new_topic", previousSequence: null, topic: "AI" }),
    ]);
    expect(groups.map((g) => g.map((c) => c.id))).toEqual([["a", "b"], ["c"], ["d"]]);
  });
});
