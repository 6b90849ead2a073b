/**
 * What the whole call says about a figure that its own sentence cannot (docs/insights.md, "Confidence"). Set on the
 * tuning half of the labelled real calls, where each of these readings was right about half the time or less:
 *
 * - a figure said in the Q&A: answers are conversational ("if I run the numbers from 2019, it was about $190 million
 *   of revenue"), hypothetical or about a part the question named, so they are shown as unverified;
 * - a volume: "volume" is mostly a product's, a region's or the industry's, rarely the company's own;
 * - a company-level revenue far below the largest one of the same period in the remarks ("less than $1 million of
 *   revenue from the 797 program", "US sales increased by 31% to $62 million" beside "$133 million"): a part whose
 *   name the sentence did not give. The company's total is the largest revenue of its period.
 */
import type { Figure } from "@/lib/schemas/insights";
import { FIGURE_CONFIDENCE_THRESHOLD } from "./figures";

/** Below the threshold: shown, greyed, as unverified. */
const UNVERIFIED = Math.round((FIGURE_CONFIDENCE_THRESHOLD - 0.05) * 100) / 100;
/** A revenue under this share of its period's largest is a part of the company, not the company. */
const PART_OF_LARGEST = 0.5;

const capped = (f: Figure, to: number): Figure => (f.confidence > to ? { ...f, confidence: to } : f);

const isCompanyRevenueLevel = (f: Figure) =>
  f.metric === "revenue" &&
  f.segment === null &&
  f.kind === "level" &&
  f.unit === "usd" &&
  !f.isGuidance &&
  f.value > 0 &&
  f.confidence >= FIGURE_CONFIDENCE_THRESHOLD;

export function calibrate(figures: readonly Figure[], qaStartSequence: number | null): Figure[] {
  const inQa = (f: Figure) => qaStartSequence !== null && f.sequence >= qaStartSequence;
  const largest = new Map<string, number>();
  for (const f of figures)
    if (isCompanyRevenueLevel(f) && !inQa(f))
      largest.set(String(f.period), Math.max(largest.get(String(f.period)) ?? 0, f.value));
  return figures.map((f) => {
    if (inQa(f)) return capped(f, UNVERIFIED);
    if (f.metric === "volume") return capped(f, UNVERIFIED);
    if (isCompanyRevenueLevel(f) && f.value < PART_OF_LARGEST * (largest.get(String(f.period)) ?? 0))
      return capped(f, UNVERIFIED);
    return f;
  });
}
