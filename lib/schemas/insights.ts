/**
 * Our API's shapes for a call's insights (`GET /api/calls/[callId]/insights`): figures stated in the call against
 * the earnings calendar's consensus, changes against the company's previous call, and the Q&A's structure.
 *
 * The browser recomputes `figures`, `changes` and `qa` from the transcript it already holds (lib/insights, the same
 * pure code the server runs), so it needs `context` (consensus and the previous call's sentences) once per call.
 */
import { z } from "zod";
import { envelopeSchema } from "./envelope";

/**
 * Metrics the extractor knows (the vocabulary of docs/insights.md). `segment_revenue` carries the segment's name in
 * `segment`; any other metric with a `segment` is that part of the company's figure, never the company's own.
 */
export const FIGURE_METRICS = [
  "revenue",
  "segment_revenue",
  "comparable_sales",
  "eps",
  "gross_margin",
  "operating_margin",
  "net_margin",
  "ebitda_margin",
  "gross_profit",
  "operating_income",
  "net_income",
  "ebitda",
  "free_cash_flow",
  "operating_cash_flow",
  "capex",
  "cash",
  "liquidity",
  "debt",
  "buyback",
  "dividend",
  "tax_rate",
  "backlog",
  "bookings",
  "subscribers",
  "arr",
  "operating_expenses",
  "sga",
  "interest_expense",
  "inventory",
  "volume",
  "price",
  "ffo",
  "noi",
  "occupancy",
  "net_interest_income",
  "net_interest_margin",
  "loans",
  "deposits",
  "aum",
] as const;
export const figureMetricSchema = z.enum(FIGURE_METRICS);
export type FigureMetric = z.infer<typeof figureMetricSchema>;

/**
 * `usd` dollars, `usd_per_share` dollars per share, `percent` a number of percent, `bps` basis points, `count` a
 * number of things (subscribers).
 */
export const figureUnitSchema = z.enum(["usd", "usd_per_share", "percent", "bps", "count"]);
export type FigureUnit = z.infer<typeof figureUnitSchema>;

/** How the figure was spoken ("$4.2 billion" → `billion`); `value` is always in plain units whatever the scale. */
export const figureScaleSchema = z.enum(["one", "thousand", "million", "billion", "trillion"]);
export type FigureScale = z.infer<typeof figureScaleSchema>;

/**
 * Relative to the call: `quarter` the quarter being reported, `prior_year_quarter` the same quarter a year ago,
 * `prior_quarter` the one before, `next_quarter` the quarter after (guidance), `full_year` a fiscal year (the call's
 * for results, the one guided for guidance), `prior_year` last fiscal year, `other` any other span (year to date,
 * a half, several years, a long-term target).
 */
export const figurePeriodSchema = z.enum([
  "quarter",
  "prior_year_quarter",
  "prior_quarter",
  "next_quarter",
  "full_year",
  "prior_year",
  "other",
]);
export type FigurePeriod = z.infer<typeof figurePeriodSchema>;

export const figureBasisSchema = z.enum(["gaap", "adjusted"]);
export type FigureBasis = z.infer<typeof figureBasisSchema>;

/** `level` the figure itself ("revenue was $4.2 billion"); `change` a movement ("up 12%", "up 40 basis points"). */
export const figureKindSchema = z.enum(["level", "change"]);
export type FigureKind = z.infer<typeof figureKindSchema>;

export const figureSchema = z.object({
  /** `${sequence}:${n}`, stable while the sentence does not change. */
  id: z.string(),
  metric: figureMetricSchema,
  /**
   * The part of the company the figure is about ("Data Center", "EMEA", "SmartSide"): always set for
   * `segment_revenue`, set for other metrics when the figure is a segment's; null = the company as a whole.
   */
  segment: z.string().nullable(),
  kind: figureKindSchema,
  /** Plain units: dollars (not millions), a percentage as a number of percent; a range's midpoint. */
  value: z.number(),
  unit: figureUnitSchema,
  scale: figureScaleSchema,
  period: figurePeriodSchema,
  basis: figureBasisSchema.nullable(),
  isGuidance: z.boolean(),
  /** A range's ends ("$4.3 billion to $4.5 billion"); also set for qualitative ranges ("low single digits"). */
  low: z.number().optional(),
  high: z.number().optional(),
  /** A qualitative statement turned into a range ("low single digits" → 1–3 %). */
  isApproximate: z.boolean(),
  /** The sentence it came from (the transcript's sequence). */
  sequence: z.number().int().nonnegative(),
  startMs: z.number(),
  /** What was said, as written in the sentence ("$4.2 billion"). */
  quote: z.string(),
  /** 0–1; below `FIGURE_CONFIDENCE_THRESHOLD` the figure is shown as unverified, never as fact. */
  confidence: z.number(),
  /** The calendar's consensus for the same metric and period (revenue and EPS of this or the next quarter). */
  consensus: z.number().optional(),
  /** (value − consensus) / |consensus| × 100. */
  surprisePercent: z.number().optional(),
});
export type Figure = z.infer<typeof figureSchema>;

export const CHANGE_KINDS = [
  "figure_up",
  "figure_down",
  "guidance_raised",
  "guidance_lowered",
  "intensity_up",
  "intensity_down",
  "new_topic",
  "dropped_topic",
] as const;
export const changeKindSchema = z.enum(CHANGE_KINDS);
export type ChangeKind = z.infer<typeof changeKindSchema>;

export const changeSchema = z.object({
  id: z.string(),
  kind: changeKindSchema,
  /** This call's sentence (null for a dropped topic: nothing here says it). */
  sequence: z.number().int().nonnegative().nullable(),
  startMs: z.number().nullable(),
  text: z.string().nullable(),
  /** The previous call's most similar sentence (null for a new topic). */
  previousSequence: z.number().int().nonnegative().nullable(),
  previousStartMs: z.number().nullable(),
  previousText: z.string().nullable(),
  /** 0–1 similarity of the two sentences (1 for topic changes, which compare whole calls). */
  similarity: z.number(),
  metric: figureMetricSchema.nullable(),
  unit: figureUnitSchema.nullable(),
  before: z.number().nullable(),
  after: z.number().nullable(),
  /** Intensity shifts: the words ("strong" → "modest"); topic changes: the topic. */
  fromWord: z.string().nullable(),
  toWord: z.string().nullable(),
  topic: z.string().nullable(),
});
export type Change = z.infer<typeof changeSchema>;

export const speakerRoleSchema = z.enum(["operator", "management", "analyst"]);
export type SpeakerRole = z.infer<typeof speakerRoleSchema>;

export const qaTurnSchema = z.object({
  /** The operator's introduction, or the analyst's first sentence when there was none. */
  sequence: z.number().int().nonnegative(),
  startMs: z.number(),
  analyst: z.string().nullable(),
  firm: z.string().nullable(),
  /** The diarization label the analyst speaks under, once heard. */
  speaker: z.string().nullable(),
  /** The question in one line (null until the analyst has spoken). */
  question: z.string().nullable(),
  questionSequence: z.number().int().nonnegative().nullable(),
  answeredBy: z.array(z.string()),
  answerSentences: z.number().int().nonnegative(),
  answerWords: z.number().int().nonnegative(),
  answerMs: z.number().nonnegative(),
  /** Mean sentiment (−1..1) of the answer's sentences; null without scores. */
  answerSentiment: z.number().nullable(),
});
export type QaTurn = z.infer<typeof qaTurnSchema>;

export const speakerSentimentSchema = z.object({
  /** The voice's label (`OPERATOR`, `SPEAKER_2`). */
  speaker: z.string(),
  /** The person's name: enrichment's, else read from the call (introductions, hand-offs), else null. */
  name: z.string().nullable(),
  /** True while the name is read from the call's words, not yet confirmed by enrichment (shown as inferred). */
  nameInferred: z.boolean().default(false),
  role: speakerRoleSchema,
  firm: z.string().nullable(),
  sentences: z.number().int().nonnegative(),
  sentiment: z.number().nullable(),
});
export type SpeakerSentiment = z.infer<typeof speakerSentimentSchema>;

export const qaSchema = z.object({
  /** The first sentence of the Q&A, null while the prepared remarks go on. */
  qaStartSequence: z.number().int().nonnegative().nullable(),
  turns: z.array(qaTurnSchema),
  speakers: z.array(speakerSentimentSchema),
});
export type Qa = z.infer<typeof qaSchema>;

/** One earnings-calendar record's consensus and actuals, as the comparisons use them. */
export const consensusRecordSchema = z.object({
  period: z.string().nullable(),
  periodYear: z.number().int().nullable(),
  date: z.string(),
  epsType: z.string().nullable(),
  epsEst: z.number().nullable(),
  eps: z.number().nullable(),
  epsSurprisePercent: z.number().nullable(),
  revenueEst: z.number().nullable(),
  revenue: z.number().nullable(),
  revenueSurprisePercent: z.number().nullable(),
});
export type ConsensusRecord = z.infer<typeof consensusRecordSchema>;

export const consensusSchema = z.object({
  /** The quarter the call reports. */
  current: consensusRecordSchema.nullable(),
  /** The following quarter: what guidance is compared with. */
  next: consensusRecordSchema.nullable(),
});
export type Consensus = z.infer<typeof consensusSchema>;

export const previousSentenceSchema = z.object({
  sequence: z.number().int().nonnegative(),
  speaker: z.string(),
  startMs: z.number(),
  text: z.string(),
});
export type PreviousSentence = z.infer<typeof previousSentenceSchema>;

export const previousCallSchema = z.object({
  callId: z.string(),
  title: z.string(),
  startTime: z.string(),
  period: z.string().nullable(),
  year: z.number().nullable(),
  segments: z.array(previousSentenceSchema),
});
export type PreviousCall = z.infer<typeof previousCallSchema>;

export const insightsContextSchema = z.object({
  consensus: consensusSchema,
  previousCall: previousCallSchema.nullable(),
  /**
   * The call's own fiscal quarter ("Q3", 2021), so a quarter or year said in a sentence can be placed against it
   * ("first quarter 2020" on a 2021 call is a year ago). Optional: older answers lack it.
   */
  call: z.object({ period: z.string().nullable(), year: z.number().int().nullable() }).optional(),
});
export type InsightsContext = z.infer<typeof insightsContextSchema>;

export const insightsSchema = z.object({
  figures: z.array(figureSchema),
  changes: z.array(changeSchema),
  qa: qaSchema,
});
export type Insights = z.infer<typeof insightsSchema>;

export const callInsightsSchema = insightsSchema.extend({
  callId: z.string(),
  symbol: z.string(),
  /** The last sentence these insights cover; the stream's next sentences extend them. */
  throughSequence: z.number().int().nullable(),
  context: insightsContextSchema,
});
export type CallInsights = z.infer<typeof callInsightsSchema>;

/** `GET /api/calls/[callId]/insights` → `{ data: CallInsights, meta }`. */
export const callInsightsResponseSchema = envelopeSchema(callInsightsSchema);
