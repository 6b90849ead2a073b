import { describe, expect, it } from "vitest";
import type { InsightsContext } from "@/lib/schemas/insights";
import { computeInsights, InsightsEngine } from "./engine";
import { CURRENT_CALL, PREVIOUS_CALL } from "./fixtures.test-data";

const context: InsightsContext = {
  consensus: {
    current: {
      period: "Q3",
      periodYear: 2026,
      date: "2026-10-20",
      epsType: "Adj",
      epsEst: 1.9,
      eps: 1.99,
      epsSurprisePercent: 4.737,
      revenueEst: 4_100_000_000,
      revenue: 4_213_000_000,
      revenueSurprisePercent: 2.756,
    },
    next: {
      period: "Q4",
      periodYear: 2026,
      date: "2027-01-20",
      epsType: "Adj",
      epsEst: 2.1,
      eps: null,
      epsSurprisePercent: null,
      revenueEst: 4_500_000_000,
      revenue: null,
      revenueSurprisePercent: null,
    },
  },
  previousCall: {
    callId: "a".repeat(24),
    title: "Q2 2026 Example Corp Earnings Call",
    startTime: "2026-07-20T20:00:00Z",
    period: "Q2",
    year: 2026,
    segments: PREVIOUS_CALL.map(({ sequence, speaker, startMs, text }) => ({
      sequence,
      speaker,
      startMs,
      text,
    })),
  },
};

describe("computeInsights", () => {
  const insights = computeInsights({ sentences: CURRENT_CALL, isComplete: false }, context);

  it("shows the calendar's own surprise when the spoken figure is its actual, rounded", () => {
    const revenue = insights.figures.find(
      (f) => f.metric === "revenue" && f.kind === "level" && !f.isGuidance,
    );
    expect(revenue).toMatchObject({ value: 4_200_000_000, consensus: 4_100_000_000, surprisePercent: 2.756 });
    const eps = insights.figures.find((f) => f.metric === "eps" && f.period === "quarter");
    expect(eps).toMatchObject({ value: 1.99, consensus: 1.9, surprisePercent: 4.737 });
  });

  it("compares the guidance midpoint with the next quarter's consensus", () => {
    const guide = insights.figures.find((f) => f.isGuidance && f.metric === "revenue");
    expect(guide).toMatchObject({ value: 4_400_000_000, consensus: 4_500_000_000 });
    expect(guide?.surprisePercent).toBeCloseTo(-2.222, 2);
  });

  it("does not compare a year-ago figure with consensus", () => {
    const prior = insights.figures.find((f) => f.period === "prior_year_quarter");
    expect(prior?.value).toBe(1.75);
    expect(prior?.consensus).toBeUndefined();
  });

  it("leaves out figures analysts say in their questions", () => {
    expect(insights.figures.some((f) => f.value === 300_000_000)).toBe(false);
  });

  it("flags changed figures, raised guidance, intensity shifts and new topics against the previous call", () => {
    const kinds = insights.changes.map((c) => `${c.kind}:${c.sequence}`);
    expect(kinds).toContain("figure_up:3");
    expect(kinds).toContain("figure_up:4");
    expect(kinds).toContain("guidance_raised:7");
    expect(kinds).toContain("intensity_down:2");
    const intensity = insights.changes.find((c) => c.kind === "intensity_down");
    expect(intensity).toMatchObject({ fromWord: "strong", toWord: "modest", previousSequence: 2 });
    const segment = insights.changes.find((c) => c.kind === "figure_up" && c.sequence === 4);
    expect(segment).toMatchObject({ before: 1_800_000_000, after: 2_100_000_000, topic: "Data Center" });
    expect(insights.changes.find((c) => c.kind === "new_topic" && c.topic === "tariffs")?.sequence).toBe(5);
    expect(insights.changes.some((c) => c.kind === "dropped_topic")).toBe(false);
  });

  it("reports topics dropped since the previous call once the call is over", () => {
    const done = computeInsights({ sentences: CURRENT_CALL, isComplete: true }, context);
    const dropped = done.changes.filter((c) => c.kind === "dropped_topic").map((c) => c.topic);
    expect(dropped).toContain("supply chain");
    expect(dropped).not.toContain("demand");
  });

  it("works without a previous call or consensus", () => {
    const bare = computeInsights({ sentences: CURRENT_CALL, isComplete: false }, null);
    expect(bare.changes).toEqual([]);
    expect(bare.figures.find((f) => f.metric === "revenue")?.consensus).toBeUndefined();
  });

  it("gives the same answer incrementally as in one go", () => {
    const engine = new InsightsEngine(context);
    for (let n = 1; n <= CURRENT_CALL.length; n++) {
      engine.compute({ sentences: CURRENT_CALL.slice(0, n), isComplete: false });
    }
    expect(engine.compute({ sentences: CURRENT_CALL, isComplete: false })).toEqual(insights);
  });
});

describe("compareWithConsensus: only what the calendar row estimates", () => {
  const say = (...texts: string[]) =>
    texts.map((text, sequence) => ({
      sequence,
      speaker: "SPEAKER_2",
      startMs: sequence * 5_000,
      endMs: sequence * 5_000 + 4_000,
      text,
    }));
  const row = (epsType: string | null) => ({
    ...context,
    previousCall: null,
    consensus: {
      current: { ...context.consensus.current!, epsType },
      next: context.consensus.next,
    },
  });
  const compared = (texts: string[], epsType: string | null = "Adj") =>
    computeInsights({ sentences: say(...texts), isComplete: false }, row(epsType))
      .figures.filter((f) => f.consensus !== undefined)
      .map((f) => [f.metric, f.value]);

  it("never compares a segment's revenue, however its name is written", () => {
    expect(
      compared([
        "Data centers revenue was $6.55 billion, up 12% year over year, and represented 46% of total revenue.",
        "Revenue from our Cloud Services segment was $1.2 billion.",
        "In the Industrial business, sales were $900 million.",
        "Latin America net sales were $1.1 billion.",
      ]),
    ).toEqual([]);
  });

  it("compares the company's own revenue of the quarter", () => {
    expect(compared(["Total revenue for the third quarter was $4.2 billion."])).toEqual([
      ["revenue", 4_200_000_000],
    ]);
  });

  it("compares EPS only on the calendar's basis", () => {
    const texts = ["GAAP EPS was $1.62.", "Adjusted EPS was $1.99.", "Diluted EPS was $1.70."];
    expect(compared(texts, "Adj")).toEqual([["eps", 1.99]]);
    expect(compared(texts, "GAAP")).toEqual([
      ["eps", 1.62],
      ["eps", 1.7],
    ]);
  });

  it("compares FFO per share with a calendar on an FFO basis, and EPS not", () => {
    expect(compared(["FFO per share was $1.05.", "Earnings per share were $0.42."], "FFO")).toEqual([
      ["ffo", 1.05],
    ]);
  });

  it("does not compare an impact, a full-year figure or a year-ago figure", () => {
    expect(
      compared([
        "Currency reduced revenue by $120 million.",
        "For the full year, revenue was $16.1 billion.",
        "Revenue was $3.9 billion in the year-ago quarter.",
      ]),
    ).toEqual([]);
  });

  it("does not compare a part's, an item's or another span's figure, however the metric is read", () => {
    expect(
      compared([
        "Results for the regulated business were $1.95 per share, up $0.06.",
        "Our US sales increased by 44% to $840 million.",
        "These results include favorable discrete tax items of $135 million or $0.30 per share.",
        "We are under contract on the sale of our Dallas tower at a sales price of $148 million.",
        "Year-to-date revenue was $12.4 billion.",
      ]),
    ).toEqual([]);
  });

  it("in a fourth quarter's call, compares only a figure the sentence places in the quarter", () => {
    const fourth = (texts: string[]) =>
      computeInsights(
        { sentences: say(...texts), isComplete: false },
        { ...row("Adj"), call: { period: "Q4", year: 2026 } },
      )
        .figures.filter((f) => f.consensus !== undefined)
        .map((f) => [f.metric, f.value]);
    expect(fourth(["Revenue for 2026 was $16.1 billion.", "Adjusted EPS was $7.80."])).toEqual([]);
    expect(fourth(["Fourth quarter revenue was $4.2 billion."])).toEqual([["revenue", 4_200_000_000]]);
  });
});

describe("calibration: what the whole call says about a figure", () => {
  const lines = (...texts: [string, string][]) =>
    texts.map(([speaker, text], sequence) => ({
      sequence,
      speaker,
      startMs: sequence * 5_000,
      endMs: sequence * 5_000 + 4_000,
      text,
    }));
  const shown = (texts: [string, string][]) =>
    computeInsights({ sentences: lines(...texts), isComplete: true }, null).figures.map((f) => [
      f.metric,
      f.value,
      f.confidence >= 0.7 ? "fact" : "unverified",
    ]);

  it("shows a revenue far below the period's largest as unverified: a part the sentence did not name", () => {
    expect(
      shown([
        ["SPEAKER_1", "Revenue was $1.48 billion in the quarter."],
        ["SPEAKER_1", "We generated less than $12 million of revenue on the 787 program."],
      ]),
    ).toEqual([
      ["revenue", 1_480_000_000, "fact"],
      ["revenue", 12_000_000, "unverified"],
    ]);
  });

  it("shows figures said in the Q&A and volumes as unverified", () => {
    expect(
      shown([
        ["SPEAKER_1", "Volume was up 4% in the quarter."],
        ["OPERATOR", "Our first question comes from Jane Doe with Morgan Stanley."],
        ["SPEAKER_2", "How should we think about margins?"],
        ["SPEAKER_1", "If you take last year, it was about $243 million of revenue."],
      ]),
    ).toEqual([
      ["volume", 4, "unverified"],
      ["revenue", 243_000_000, "unverified"],
    ]);
  });

  it("shows a range stated without guidance words as unverified: results are not ranges", () => {
    expect(shown([["SPEAKER_1", "Fourth quarter revenue of $1.63 billion to $1.66 billion."]])).toEqual([
      ["revenue", 1_645_000_000, "unverified"],
    ]);
  });
});
