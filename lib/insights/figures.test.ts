import { describe, expect, it } from "vitest";
import type { Figure } from "@/lib/schemas/insights";
import { extractFigures, isFact } from "./figures";
import { LABELLED_SENTENCES, type ExpectedFigure } from "@/test/fixtures/insights/figures-labelled";

function matches(f: Figure, e: ExpectedFigure): boolean {
  const close = (a: number, b: number) => Math.abs(a - b) <= Math.max(1e-9, Math.abs(b) * 0.001);
  return (
    f.metric === e.metric &&
    f.unit === e.unit &&
    close(f.value, e.value) &&
    f.kind === (e.kind ?? "level") &&
    f.period === (e.period ?? "quarter") &&
    f.isGuidance === (e.isGuidance ?? false) &&
    (e.basis === undefined || f.basis === e.basis) &&
    (e.segment === undefined || f.segment === e.segment) &&
    (e.low === undefined || (f.low !== undefined && close(f.low, e.low))) &&
    (e.high === undefined || (f.high !== undefined && close(f.high, e.high)))
  );
}

/** Figures shown as fact against the labels: a fact matching no label is a false positive. */
function evaluate() {
  let truePositives = 0;
  let falsePositives = 0;
  let expectedCount = 0;
  const misses: string[] = [];
  for (const [i, s] of LABELLED_SENTENCES.entries()) {
    const facts = extractFigures({ sequence: i, text: s.text, startMs: 0 }).filter(isFact);
    expectedCount += s.figures.length;
    const unmatched = [...s.figures];
    for (const f of facts) {
      const at = unmatched.findIndex((e) => matches(f, e));
      if (at >= 0) {
        truePositives++;
        unmatched.splice(at, 1);
      } else {
        falsePositives++;
        misses.push(`FP ${s.text} → ${JSON.stringify(f)}`);
      }
    }
    for (const e of unmatched) misses.push(`FN ${s.text} → ${JSON.stringify(e)}`);
  }
  return {
    precision: truePositives / Math.max(1, truePositives + falsePositives),
    recall: truePositives / Math.max(1, expectedCount),
    misses,
  };
}

describe("extractFigures on the labelled set", () => {
  it("has at least 60 sentences", () => {
    expect(LABELLED_SENTENCES.length).toBeGreaterThanOrEqual(60);
  });

  it("reaches precision ≥ 0.95 and recall ≥ 0.9 on the figures it shows as fact", () => {
    const { precision, recall, misses } = evaluate();
    console.info(
      `figures: precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)} over ${LABELLED_SENTENCES.length} sentences`,
    );
    if (misses.length > 0) console.info(misses.join("\n"));
    expect(precision).toBeGreaterThanOrEqual(0.95);
    expect(recall).toBeGreaterThanOrEqual(0.9);
  });
});

describe("extractFigures", () => {
  const one = (text: string) => extractFigures({ sequence: 7, text, startMs: 12_000 });

  it("states values in plain units whatever the spoken scale", () => {
    const [f] = one("Revenue was $4.2 billion.");
    expect(f).toMatchObject({ metric: "revenue", value: 4_200_000_000, unit: "usd", scale: "billion" });
    expect(f).toMatchObject({ sequence: 7, startMs: 12_000, quote: "$4.2 billion" });
  });

  it("spreads a scale said once over both ends of a range", () => {
    const [f] = one("We expect revenue in the range of $7.88 to $8.2 billion.");
    expect(f).toMatchObject({
      low: 7_880_000_000,
      high: 8_200_000_000,
      value: 8_040_000_000,
      isGuidance: true,
    });
  });

  it("drops the figure a speaker corrects away", () => {
    const figures = one("Sorry, revenue was $4.2 billion, not $4.3 billion.");
    expect(figures.map((f) => f.value)).toEqual([4_200_000_000]);
  });

  it("keeps a year-ago figure apart from the quarter's", () => {
    const figures = one("Net income was $812 million, compared with $655 million a year ago.");
    expect(figures.map((f) => f.period)).toEqual(["quarter", "prior_year_quarter"]);
  });

  it("reads a change against an earlier year's period as this quarter's growth, not the year's", () => {
    const figures = extractFigures(
      {
        sequence: 1,
        text: "Third-quarter sales were $1.67 billion, up 19% over the same period in 2025.",
        startMs: 0,
      },
      { fiscalYear: 2026, fiscalQuarter: 3 },
    );
    expect(figures.map((f) => [f.kind, f.period])).toEqual([
      ["level", "quarter"],
      ["change", "quarter"],
    ]);
  });

  it("reads a year named before the metric as the year's guidance", () => {
    const [f] = one("We expect to reach 2027 adjusted EBITDA margin of about 18%.");
    expect([f?.metric, f?.isGuidance, f?.period]).toEqual(["ebitda_margin", true, "full_year"]);
  });

  it("reads an outlook raised mid-year as the year's, whatever quarter was guided a sentence before", () => {
    const [f] = extractFigures(
      {
        sequence: 1,
        text: "We are also lifting our free cash flow outlook to roughly $420 million.",
        startMs: 0,
      },
      { fiscalYear: 2026, fiscalQuarter: 2, horizon: "next_quarter" },
    );
    expect([f?.metric, f?.isGuidance, f?.period]).toEqual(["free_cash_flow", true, "full_year"]);
  });

  it("reads a part named after the metric, or expected to earn the amount, as that part", () => {
    const read = (text: string) =>
      extractFigures({ sequence: 1, text, startMs: 0 }, { fiscalYear: 2026, fiscalQuarter: 2 }).map((f) => [
        f.metric,
        f.segment,
        f.value,
      ]);
    expect(read("We now expect full-year revenue for Trailhead to grow about 12%.")).toEqual([
      ["segment_revenue", "Trailhead", 12],
    ]);
    expect(read("We expect the Utilities segment to contribute $1.70 to $1.80 per diluted share.")).toEqual([
      ["eps", "Utilities segment", 1.75],
    ]);
  });

  it("reads no part in words that name none, and no figure in availability or in a relative clause's noun", () => {
    const read = (text: string) =>
      extractFigures({ sequence: 1, text, startMs: 0 }).map((f) => [f.metric, f.segment, f.value]);
    expect(read("We widened adjusted operating margins by 200 basis points.")).toEqual([
      ["operating_margin", null, 200],
    ]);
    expect(read("The preferred stock dividend for the quarter was $0.40 per share.")).toEqual([
      ["dividend", null, 0.4],
    ]);
    expect(
      read(
        "Liquidity was $410 million, with $160 million in cash and $250 million available under our revolver.",
      ),
    ).toEqual([
      ["liquidity", null, 410_000_000],
      ["cash", null, 160_000_000],
    ]);
    expect(read("Travel costs, which are loosely tied to revenue, were up 6% in the quarter.")).toEqual([]);
    expect(read("Wholesale transactions grew 11% for the quarter.")).toEqual([]);
    expect(read("Operating activities provided $240.5 million of cash flow in the quarter.")).toEqual([
      ["operating_cash_flow", null, 240_500_000],
    ]);
  });

  it("does not state a figure from a question as fact", () => {
    const figures = one("Was revenue really $4.2 billion in the quarter?");
    expect(figures).toHaveLength(1);
    expect(isFact(figures[0]!)).toBe(false);
  });

  it("attributes nothing to an amount no metric owns", () => {
    expect(one("We returned $2.4 billion to shareholders.")).toEqual([]);
    expect(one("We opened 12 stores in 2026.")).toEqual([]);
  });
});

describe("extractFigures on phrasings real calls use (sentences written here)", () => {
  const facts = (text: string) =>
    extractFigures({ sequence: 0, text, startMs: 0 })
      .filter(isFact)
      .map((f) => ({ metric: f.metric, segment: f.segment, kind: f.kind, value: f.value }));

  it("does not make a level negative for a loss named in an aside", () => {
    expect(facts("Parts revenue, including realized currency losses, was $2.4 billion.")).toEqual([
      { metric: "segment_revenue", segment: "Parts", kind: "level", value: 2.4e9 },
    ]);
  });

  it("takes no figure from a beat, the market's numbers, a ratio to a base year, or an effect on a metric", () => {
    expect(facts("We beat the midpoint of our outlook by $0.05 per share.")).toEqual([]);
    expect(facts("Industry same-store sales fell 12% in the period.")).toEqual([]);
    expect(facts("Sales reached roughly 85% of 2019 levels.")).toEqual([]);
    expect(facts("This refinancing will reduce interest expense by about $6 million a year.")).toEqual([]);
  });

  it("reads the company, its basis and a verb as no part of it, and a country as one", () => {
    expect(facts("The Company's effective tax rate was 23%.")).toEqual([
      { metric: "tax_rate", segment: null, kind: "level", value: 23 },
    ]);
    expect(facts("Non-GAAP earnings are expected to be $3.10 to $3.20 per share.")[0]?.segment).toBeNull();
    expect(facts("Those savings produced adjusted EBITDA of $61 million.")[0]?.segment).toBeNull();
    expect(facts("Adjusted diluted EPS rose 12% to $1.40.").map((f) => f.segment)).toEqual([null, null]);
    expect(facts("Fully diluted EPS was $1.10.")[0]?.segment).toBeNull();
    expect(facts("Fixed index annuity sales grew 5% to $700 million.")[0]?.segment).toBe(
      "Fixed index annuity",
    );
    expect(facts("Our US sales rose 9%.")).toEqual([
      { metric: "segment_revenue", segment: "US", kind: "change", value: 9 },
    ]);
  });

  it("reads a cut named before a described metric as a change", () => {
    expect(facts("We cut store-level operating expenses 15%.")).toEqual([
      { metric: "operating_expenses", segment: null, kind: "change", value: -15 },
    ]);
  });
});
