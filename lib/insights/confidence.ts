/**
 * How sure a figure's reading is (docs/insights.md, "Confidence"): a small logistic model over what an analyst checks
 * when doubting a reading (is the metric named right at the amount, is a part of the company named in front of it,
 * is the amount the second of a list, was the period said, is it said in the Q&A …). The weights are fitted on the
 * tuning side of the labelled real calls (the tuning half and the fresh split of bench/language/labels.json) by
 * `bench/language/fit-confidence.ts`, which writes the block between the markers below; never by hand, never on the
 * held-out half. The score is the model's probability that the figure is read right (metric, part of the company,
 * kind, unit and value), so a figure at or above FIGURE_CONFIDENCE_THRESHOLD is one the model puts at 70 % or more.
 */
import type { Figure } from "@/lib/schemas/insights";

export const CONFIDENCE_FEATURES = [
  /** The metric is named after the amount ("$2.3 billion in free cash flow"). */
  "forward",
  /** The metric was named earlier in the sentence, not at the amount ("up 5%, or 7% in constant currency"). */
  "inherited",
  /** … and in another clause. */
  "inheritedAcrossClause",
  /** A second level of a metric already given a level in the sentence. */
  "secondLevel",
  /** No metric word at all: read from the unit ("$1.12 per diluted share"). */
  "unnamed",
  /** Only linking words ("was", "of", "increased") between the metric's name and the amount. */
  "adjacent",
  /** Words between the metric's name and the amount, log-scaled (0 when adjacent). */
  "distance",
  /** A noun of its own right after the amount ("$151 million of renewal leases") that is not the metric. */
  "ownNounAfter",
  /** A capitalised word (a name) in front of the metric that was not read as a part of the company. */
  "nameBeforeMetric",
  /** Read as a part of the company: named in front of the metric or in a frame / as the subject / after. */
  "segmentNamed",
  "segmentSubject",
  "segmentWeak",
  /** A company-level reading in the middle of a segment's discussion. */
  "companyInSegmentTalk",
  /** The position of the amount in the sentence's list of amounts (0, 1, 2, 3+ → 0 … 1). */
  "listPosition",
  /** The sentence states many amounts (log-scaled). */
  "amounts",
  "isGuidance",
  /** Guidance whose horizon the sentence does not say. */
  "horizonUnsaid",
  /** A range read as no guidance. */
  "rangeNotGuidance",
  "approximate",
  "change",
  "percent",
  "bps",
  "perShare",
  /** EPS read from its unit ("per diluted share"). */
  "epsByUnit",
  /** A core metric of the vocabulary (revenue, EPS, margins, income, cash flows …). */
  "coreMetric",
  /** The sentence names a period ("quarter", "year", "fiscal", a year number). */
  "periodSaid",
  /** Said in the Q&A (the whole call's reading: lib/insights/calibration.ts). */
  "inQa",
  "volume",
  /** A company-level revenue under half the largest of its period in the remarks (a part not named). */
  "smallRevenue",
] as const;

export type ConfidenceFeature = (typeof CONFIDENCE_FEATURES)[number];
export type ConfidenceFeatures = Record<ConfidenceFeature, number>;

// bench:confidence-model:start
/**
 * Fitted by bench/language/fit-confidence.ts (L2 1) on 125 figures found in the tuning side's labelled
 * sentences (0 right); leaving each of the 26 calls out in turn, the figures at or above the threshold
 * were right NaN of the time and held NaN of the right ones.
 */
export const CONFIDENCE_BIAS = 2.358;
export const CONFIDENCE_WEIGHTS: Record<ConfidenceFeature, number> = {
  forward: 0.398,
  inherited: 0.547,
  inheritedAcrossClause: 0,
  secondLevel: 0.038,
  unnamed: 0.295,
  adjacent: -0.207,
  distance: -0.1,
  ownNounAfter: 0.032,
  nameBeforeMetric: -1.057,
  segmentNamed: -0.578,
  segmentSubject: 0.518,
  segmentWeak: -0.11,
  companyInSegmentTalk: 0,
  listPosition: -0.091,
  amounts: 0.589,
  isGuidance: -0.784,
  horizonUnsaid: 0.502,
  rangeNotGuidance: 0.132,
  approximate: 0,
  change: -0.779,
  percent: -0.312,
  bps: 0.321,
  perShare: 0.607,
  epsByUnit: 0.092,
  coreMetric: 0.508,
  periodSaid: 0.141,
  inQa: -1.11,
  volume: -1.001,
  smallRevenue: 0,
};
// bench:confidence-model:end

/** The model's probability, for the given weights (the fit script scores candidate weights with it). */
export function scoreWith(
  x: ConfidenceFeatures,
  bias: number,
  weights: Readonly<Record<ConfidenceFeature, number>>,
): number {
  let z = bias;
  for (const k of CONFIDENCE_FEATURES) z += weights[k] * x[k];
  return 1 / (1 + Math.exp(-z));
}

export const confidenceOf = (x: ConfidenceFeatures): number =>
  Math.round(scoreWith(x, CONFIDENCE_BIAS, CONFIDENCE_WEIGHTS) * 100) / 100;

/**
 * Each figure's features, kept beside it rather than on it (they are no part of the API's shape); the whole call's
 * reading (calibration.ts) adds its own and scores again.
 */
const featuresByFigure = new WeakMap<Figure, ConfidenceFeatures>();

export const featuresOf = (f: Figure): ConfidenceFeatures | undefined => featuresByFigure.get(f);

/** Figures a rule keeps from being fact whatever the model says (a question, a prior range): not the model's to learn. */
const ruledOut = new WeakSet<Figure>();

export const isRuledOut = (f: Figure): boolean => ruledOut.has(f);

export function withFeatures(f: Figure, x: ConfidenceFeatures, ruled = false): Figure {
  featuresByFigure.set(f, x);
  if (ruled) ruledOut.add(f);
  return f;
}
