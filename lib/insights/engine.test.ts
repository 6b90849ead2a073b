import { describe, expect, it } from "vitest";
import type { InsightsContext } from "@/lib/schemas/insights";
import { statesReportedNumber } from "./consensus";
import { computeInsights, InsightsEngine } from "./engine";
import { isFact } from "./fact";
import { CURRENT_CALL, PREVIOUS_CALL, saidBy, sentencesOf } from "@/test/fixtures/insights/calls";

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
  const say = (...texts: string[]) => saidBy("SPEAKER_2", texts);
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
    const texts = [
      "GAAP EPS for the quarter was $1.62.",
      "Adjusted EPS for the quarter was $1.99.",
      "Diluted EPS for the third quarter was $1.70.",
    ];
    expect(compared(texts, "Adj")).toEqual([["eps", 1.99]]);
    // "Diluted EPS" says no basis: companies lead with either, so it meets neither row.
    expect(compared(texts, "GAAP")).toEqual([["eps", 1.62]]);
    // A row that does not say its basis matches no EPS: either reading could be a false surprise.
    expect(compared(texts, null)).toEqual([]);
  });

  it("compares FFO per share with a calendar on an FFO basis, and EPS not", () => {
    expect(
      compared(
        ["FFO per share for the quarter was $1.05.", "Earnings per share for the quarter were $0.42."],
        "FFO",
      ),
    ).toEqual([["ffo", 1.05]]);
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
        "Results this quarter include favorable discrete tax items of $62 million, or $0.14 per share.",
        "We are under contract on the sale of our Dallas tower at a sales price of $148 million.",
        "Year-to-date revenue was $12.4 billion.",
      ]),
    ).toEqual([]);
  });

  it("in a fourth quarter's call, compares only a figure the sentence places in the quarter", () => {
    const fourth = (texts: string[]) =>
      computeInsights(
        { sentences: say(...texts), isComplete: false },
        {
          ...row("Adj"),
          consensus: { current: { ...context.consensus.current!, period: "Q4" }, next: null },
          call: { period: "Q4", year: 2026 },
        },
      )
        .figures.filter((f) => f.consensus !== undefined)
        .map((f) => [f.metric, f.value]);
    expect(fourth(["Revenue for 2026 was $16.1 billion.", "Adjusted EPS was $7.80."])).toEqual([]);
    expect(fourth(["Fourth quarter revenue was $4.2 billion."])).toEqual([["revenue", 4_200_000_000]]);
  });
});

describe("statesReportedNumber: only the number an analyst would call the reported one", () => {
  const row = { quarter: 3, year: 2026, guidance: false };
  const revenue = (text: string, value: number) =>
    statesReportedNumber({ ...row, text, epsType: "Adj" }, "revenue", value);
  const eps = (text: string, value: number, epsType: string | null = "Adj", guidance = false) =>
    statesReportedNumber({ ...row, text, epsType, guidance, quarter: guidance ? 4 : 3 }, "eps", value);

  it("accepts the company's total for the quarter, stated plainly", () => {
    expect(
      revenue(
        "Total revenue for the third quarter was $4.2 billion, up 8% from $3.9 billion a year ago.",
        4.2e9,
      ),
    ).toBe(true);
    expect(revenue("Net sales for the quarter were $742 million, down 6% from the prior year.", 742e6)).toBe(
      true,
    );
    expect(revenue("Q3 2026 revenues were $512 million.", 512e6)).toBe(true);
    expect(eps("Adjusted EPS for the quarter was $1.99, compared with $1.75 a year ago.", 1.99)).toBe(true);
    expect(
      eps("For the quarter, adjusted net income came in at $61 million, or $0.23 per diluted share.", 0.23),
    ).toBe(true);
    expect(
      eps("Net income for the third quarter was $7.4 million or $0.27 per diluted share.", 0.27, "GAAP"),
    ).toBe(true);
    expect(
      eps("For the fourth quarter, we expect adjusted EPS in the range of $2.05 to $2.15.", 2.1, "Adj", true),
    ).toBe(true);
  });

  it("does not compare a sentence that names no quarter, another quarter or another year", () => {
    expect(revenue("Revenue was $4.2 billion, up 12% year over year.", 4.2e9)).toBe(false);
    expect(revenue("Revenue in the second quarter was $4.0 billion.", 4e9)).toBe(false);
    expect(revenue("Third quarter 2025 revenue was $3.9 billion.", 3.9e9)).toBe(false);
    expect(revenue("In the year-ago quarter, revenue was $3.9 billion.", 3.9e9)).toBe(false);
    expect(
      revenue("Compared with $3.9 billion last year, third quarter revenue was $4.2 billion.", 4.2e9),
    ).toBe(false);
    expect(
      revenue(
        "Revenue for the first nine months was $12.4 billion, including $4.2 billion in the quarter.",
        4.2e9,
      ),
    ).toBe(false);
  });

  it("does not compare a part, an adjusted or organic total, an item, or a bound", () => {
    expect(revenue("Cloud revenue for the quarter was $1.2 billion.", 1.2e9)).toBe(false);
    expect(revenue("Third quarter revenue in North America was $2.1 billion.", 2.1e9)).toBe(false);
    expect(revenue("Organic revenue for the quarter was $4.1 billion.", 4.1e9)).toBe(false);
    expect(revenue("On a constant currency basis, revenue for the quarter was $4.3 billion.", 4.3e9)).toBe(
      false,
    );
    expect(revenue("Third quarter revenue of more than $4 billion was a record.", 4e9)).toBe(false);
    expect(revenue("Acquisitions added $300 million of revenue in the quarter.", 300e6)).toBe(false);
    expect(
      revenue("Third quarter revenue was $4.2 billion and adjusted revenue was $4.3 billion.", 4.2e9),
    ).toBe(false);
  });

  it("compares EPS only when the sentence says the row's basis of that EPS", () => {
    const plain = "Earnings per share for the quarter were $1.20.";
    expect(eps(plain, 1.2, "Adj")).toBe(false);
    expect(eps(plain, 1.2, "GAAP")).toBe(false);
    expect(eps("GAAP EPS for the quarter was $1.62 and adjusted EPS was $1.99.", 1.99)).toBe(false);
    expect(
      eps(
        "In the third quarter, we delivered adjusted EBITDA of $71 million and earnings per share of $0.19.",
        0.19,
      ),
    ).toBe(false);
    expect(
      eps(
        "In the third quarter, diluted EPS was $1.78, up 34% compared to adjusted diluted EPS last year.",
        1.78,
      ),
    ).toBe(false);
    expect(eps("Adjusted EPS for the quarter was $1.99.", 1.99, null)).toBe(false);
    expect(eps("Our GAAP diluted earnings per share this quarter were $1.37.", 1.37, "GAAP")).toBe(true);
  });

  it("compares guidance only for the next row's quarter, as one amount or one range", () => {
    expect(eps("For the full year, we expect adjusted EPS of $8.10 to $8.30.", 8.2, "Adj", true)).toBe(false);
    expect(
      eps("For the first quarter of next year, we expect adjusted EPS of $2.20.", 2.2, "Adj", true),
    ).toBe(false);
    expect(
      eps(
        "We are raising fourth quarter adjusted EPS guidance from $2.00 to a range of $2.05 to $2.15.",
        2.1,
        "Adj",
        true,
      ),
    ).toBe(false);
  });
});

describe("compareWithConsensus in the engine: never in the Q&A", () => {
  it("leaves a plain statement of the quarter's revenue uncompared once the Q&A has begun", () => {
    const sentences = sentencesOf([
      ["SPEAKER_1", "Total revenue for the third quarter was $4.2 billion."],
      ["OPERATOR", "Our first question comes from Jane Doe with Morgan Stanley."],
      ["SPEAKER_3", "Can you walk us through the quarter?"],
      ["SPEAKER_1", "Sure. Total revenue for the third quarter was $4.2 billion."],
    ]);
    const compared = computeInsights({ sentences, isComplete: true }, { ...context, previousCall: null })
      .figures.filter((f) => f.consensus !== undefined)
      .map((f) => f.sequence);
    expect(compared).toEqual([0]);
  });

  it("gives the same number said earlier in the remarks the reported number's comparison, and no other", () => {
    const sentences = saidBy("SPEAKER_1", [
      "Revenue reached $4.2 billion, down 2% year over year.",
      "Revenue reached $4.3 billion in our peak month.",
      "Total revenue for the third quarter was $4.2 billion.",
    ]);
    const figures = computeInsights(
      { sentences, isComplete: true },
      { ...context, previousCall: null },
    ).figures;
    expect(figures.filter((f) => f.consensus !== undefined).map((f) => [f.sequence, f.value])).toEqual([
      [0, 4.2e9],
      [2, 4.2e9],
    ]);
  });
});

describe("calibration: what the whole call says about a figure", () => {
  const lines = (...texts: [string, string][]) => sentencesOf(texts);
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
        ["SPEAKER_1", "If you take last year, it was about $190 million of revenue."],
      ]),
    ).toEqual([
      ["volume", 4, "unverified"],
      ["revenue", 190_000_000, "unverified"],
    ]);
  });

  it("shows a range stated without guidance words as unverified: results are not ranges", () => {
    expect(shown([["SPEAKER_1", "Fourth quarter revenue of $1.63 billion to $1.66 billion."]])).toEqual([
      ["revenue", 1_645_000_000, "unverified"],
    ]);
  });
});

describe("periods on a fourth-quarter call", () => {
  const fourthQuarter: InsightsContext = {
    consensus: { current: null, next: null },
    previousCall: null,
    call: { period: "Q4", year: 2026 },
  };
  const periods = (lines: string[]) =>
    computeInsights(
      {
        sentences: saidBy("SPEAKER_1", lines),
        isComplete: true,
      },
      fourthQuarter,
    ).figures.map((f) => [f.metric, f.value, f.period]);

  it("reads the year's results, opened by a comparison with last year, as the full year's", () => {
    expect(
      periods([
        "Operating cash flow reached $310 million, a 40% increase over 2025.",
        "We lifted our adjusted gross margin by 150 basis points to 31.5%.",
        "In the fourth quarter, revenue was $820 million.",
      ]),
    ).toEqual([
      ["operating_cash_flow", 310_000_000, "full_year"],
      ["operating_cash_flow", 40, "full_year"],
      ["gross_margin", 150, "full_year"],
      ["gross_margin", 31.5, "full_year"],
      ["revenue", 820_000_000, "quarter"],
    ]);
  });
});

describe("a part's results announced", () => {
  it("keeps the company's revenue in the part's discussion that follows unverified", () => {
    const figures = computeInsights(
      {
        sentences: saidBy("SPEAKER_1", [
          "Slide 9 shows the highlights for Coastal Logistics, which met our plan.",
          "Excluding currency, revenue grew 6.5%.",
        ]),
        isComplete: true,
      },
      null,
    ).figures;
    expect(figures.map((f) => [f.metric, f.value, isFact(f)])).toEqual([["revenue", 6.5, false]]);
  });
});
