/**
 * What the whole call says about a figure that its own sentence cannot (docs/insights.md, "Confidence"), as two more
 * features of the confidence model (./confidence), whose weights the fit gives them:
 *
 * - a figure said in the Q&A: answers are conversational ("if I run the numbers from 2019, it was about $190 million
 *   of revenue"), hypothetical or about a part the question named;
 * - a company-level revenue far below the largest one of the same period in the remarks ("less than $1 million of
 *   revenue from the 797 program", "US sales increased by 31% to $62 million" beside "$133 million"): a part whose
 *   name the sentence did not give. The company's total is the largest revenue of its period.
 */
import type { Figure } from "@/lib/schemas/insights";
import { confidenceOf, featuresOf, isRuledOut, withFeatures } from "./confidence";

/** A revenue under this share of its period's largest is a part of the company, not the company. */
const PART_OF_LARGEST = 0.5;

const isCompanyRevenueLevel = (f: Figure) =>
  f.metric === "revenue" &&
  f.segment === null &&
  f.kind === "level" &&
  f.unit === "usd" &&
  !f.isGuidance &&
  f.value > 0;

/** The figures scored again with what the whole call says (./confidence has the model). */
export function calibrate(figures: readonly Figure[], qaStartSequence: number | null): Figure[] {
  const inQa = (f: Figure) => qaStartSequence !== null && f.sequence >= qaStartSequence;
  const largest = new Map<string, number>();
  for (const f of figures)
    if (isCompanyRevenueLevel(f) && !inQa(f))
      largest.set(String(f.period), Math.max(largest.get(String(f.period)) ?? 0, f.value));
  return figures.map((f) => {
    const own = featuresOf(f);
    if (!own) return f;
    const x = {
      ...own,
      inQa: inQa(f) ? 1 : 0,
      smallRevenue:
        isCompanyRevenueLevel(f) && f.value < PART_OF_LARGEST * (largest.get(String(f.period)) ?? 0) ? 1 : 0,
    };
    if (x.inQa === 0 && x.smallRevenue === 0) return f;
    // The sentence's own caps (a question, a prior range) still hold: the whole call only lowers a score.
    return withFeatures({ ...f, confidence: Math.min(f.confidence, confidenceOf(x)) }, x, isRuledOut(f));
  });
}
