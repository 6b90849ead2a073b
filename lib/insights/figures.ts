/**
 * Figures stated in one sentence: each amount (./mentions) gets a metric from the words around it (./metrics), a
 * kind (the level or a change), a period relative to the call, a basis (GAAP or adjusted), whether it is guidance,
 * and a confidence. Rules, not a model: they are fast (well under a millisecond a sentence), deterministic, and each
 * decision can be explained to the analyst who doubts it.
 *
 * Honest by design: what the rules cannot attribute is dropped, and what they attribute on thin evidence (the metric
 * named only earlier in the sentence, a question, a past guidance figure) gets a confidence below
 * FIGURE_CONFIDENCE_THRESHOLD, which the UI shows as unverified rather than as fact.
 */
import type {
  Figure,
  FigureBasis,
  FigureKind,
  FigureMetric,
  FigurePeriod,
  FigureUnit,
} from "@/lib/schemas/insights";
import { findMentions, type Mention } from "./mentions";
import { findMetricWords, isMarginMetric, isPerShareMetric, LEVEL_UNITS, type MetricHit } from "./metrics";

/** At or above: shown as fact. Below: shown greyed as unverified. */
export const FIGURE_CONFIDENCE_THRESHOLD = 0.7;

export interface SentenceInput {
  sequence: number;
  text: string;
  startMs: number;
}

/** A verb or noun that makes the amount after it a movement, not a level ("up 12%", "an increase of 40 bps"). */
const CHANGE_BEFORE =
  /\b(?:up|down|grew|grow|growing|growth(?: of)?|increased?|increasing|decreased?|decreasing|declined?|declining|rose|rise|fell|fall|expanded|expanding|expansion(?: of)?|contracted|contraction(?: of)?|compressed|compression(?: of)?|improved|improvement(?: of)?|higher|lower|ahead|gain(?:ed)?|jumped|dropped|climbed)\b(?:\s+(?:by|of|roughly|about|approximately|nearly|almost|more than|over|some|an additional))*\s*$/i;
const NEGATIVE_CHANGE =
  /\b(?:down|decreased?|decreasing|declined?|declining|fell|fall|contracted|contraction|compressed|compression|lower|dropped)\b/i;
const CHANGE_AFTER =
  /^\s*(?:(?:year[- ]over[- ]year|sequentially|yoy)\b|(?:growth|increase|decline|decrease|improvement|expansion|contraction|compression)\b|(?:higher|lower) than\b)/i;
/** "grew to $4.2 billion": the amount after "to" is where it landed, a level. */
const LANDED_AT = /\b(?:to|at|of)\s*$/i;

const COMPARATOR_BEFORE = /\b(?:compared (?:with|to)|versus|vs\.?|from|against|relative to)\s*(?:the\s+)?$/i;
const YEAR_AGO =
  /\b(?:a year ago|year[- ]ago|prior[- ]year|last year'?s?|same (?:quarter|period) (?:of |a |last )?(?:last )?year|previous year)\b/i;
const QUARTER_AGO = /\b(?:last quarter|prior quarter|previous quarter|sequential(?:ly)?|a quarter ago)\b/i;
const RESTATED_AWAY = /\b(?:not|rather than|instead of|(?:and )?not the)\s*$/i;

const GUIDANCE_CUE =
  /\b(?:we (?:now |currently )?(?:expect|anticipate|forecast|project|see|are (?:targeting|guiding|forecasting|projecting|expecting))|we(?:'re| are) (?:raising|lowering|reaffirming|reiterating|maintaining|narrowing|updating|initiating|introducing|increasing|cutting)|(?:our|the) (?:guidance|outlook) (?:is|calls for|assumes|implies|now)|(?:guidance|outlook) (?:for|of) (?:the )?(?:next|coming|fourth|first|second|third|full|fiscal)|expected to (?:be|come in|grow|range)|(?:raise|raising|lower|lowering|reaffirm|reaffirming|reiterate|reiterating|narrow|narrowing|update|updating|cut|cutting) (?:our|the) (?:\S+ ){0,3}(?:guidance|outlook)|should (?:be|come in|grow|land)|will be in the range|expectations? (?:is|are) for|we are guiding|we guide)\b/i;
/** "…up from our prior range of $4.90 to $5.10": last quarter's guidance, restated next to the new one. */
const PRIOR_GUIDANCE =
  /\b(?:prior|previous|earlier|original)\s+(?:range|guidance|outlook|forecast)\b|\b(?:up|down)\s+from\b/i;
/** "plus or minus 50 basis points": a tolerance around the figure before it, not a figure. */
const TOLERANCE = /\bplus or minus\s*$/i;
/** "$0.03 of EPS headwind": an effect on the metric, not the metric. */
const EFFECT_AFTER =
  /^\s*(?:headwinds?|tailwinds?|impact|benefit|dilution|accretion|charges?|contribution|drag)\b/i;
const PAST_GUIDANCE =
  /\b(?:guidance|outlook|guided|expectations?)\b(?:\s+(?:of|range of|range|midpoint of))?\s*$/i;
const FULL_YEAR =
  /\b(?:full[- ]year|fiscal (?:year )?(?:20\d\d|year)|for the (?:full |fiscal )?year|annual|calendar (?:year )?20\d\d|for 20\d\d|year[- ]end)\b/i;
const PRIOR_FULL_YEAR = /\b(?:last fiscal year|prior fiscal year|for last year)\b/i;
const ADJUSTED =
  /\b(?:non-?GAAP|adjusted|excluding(?! (?:currency|foreign exchange|FX)\b)|core|pro forma|underlying)\b/i;
const GAAP = /(?<![-\w])GAAP\b/;
const HEDGE_QUESTION = /\?\s*$/;

/** Capitalised words right before the revenue word: "Data Center revenue", "Cloud Services segment revenue". */
const SEGMENT_BEFORE =
  /(?:^|[\s,(])((?:[A-Z][\w&'-]*\s){0,2}[A-Z][\w&'-]*|(?:[A-Z][\w&'-]*\s)?(?:services|products?|subscriptions?|hardware|software|cloud|advertising|licensing|international|domestic|consulting))\s+(?:segment\s+|business\s+|division\s+)?$/;
const SEGMENT_NOT = new Set([
  "total",
  "our",
  "the",
  "net",
  "gaap",
  "non-gaap",
  "adjusted",
  "quarterly",
  "record",
  "consolidated",
  "reported",
  "organic",
  "fourth-quarter",
  "third-quarter",
  "second-quarter",
  "first-quarter",
  "full-year",
  "and",
  "in",
  "of",
  "for",
  "with",
  "so",
  "we",
  "q1",
  "q2",
  "q3",
  "q4",
  "this",
  "that",
  "company",
]);
/** "revenue from our Cloud segment", "revenue in the Industrial business". */
const SEGMENT_AFTER =
  /^\s+(?:from|in)\s+(?:our\s+|the\s+)?([A-Z][\w&'-]*(?:\s[A-Z][\w&'-]*){0,2})(?:\s+(?:segment|business|division|unit|region))?(?=[\s,.;]|$)/;
/** "Data Center delivered $2.1 billion in revenue": the subject of a forward-attributed amount. */
const SEGMENT_SUBJECT =
  /(?:^|[,;]\s*|\band\s+)(?:our\s+|the\s+)?((?:[A-Z][\w&'-]*\s){0,2}[A-Z][\w&'-]*)\s+(?:segment\s+|business\s+)?(?:delivered|generated|contributed|posted|reported|brought in|came in at)\s*$/;
/** "…$1.1 billion in free cash flow", "$4.2 billion of revenue". */
const FORWARD_CUE = /^\s*(?:in|of)\s+(?:total\s+|quarterly\s+|net\s+|GAAP\s+|non-GAAP\s+|adjusted\s+)?/i;

interface Attribution {
  hit: MetricHit;
  how: "direct" | "forward" | "inherited";
}

/** "grew 8% to a record $12.4 billion", "down 2% sequentially at $910 million": where the movement landed. */
const LANDING =
  /^\s*(?:(?:sequentially|year[- ]over[- ]year)\s+)?(?:to|at)(?:\s+(?:a|an|the|record|new|all-time|high|of|approximately|about|roughly))*\s*$/i;

/** Asides whose nouns do not own the amount after them: ", excluding the inventory charge,", "(…)". */
const ASIDES = [/,\s*(?:excluding|including|net of|before|after|which includes?)\b[^,]*,/g, /\([^)]*\)/g];

function asideRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  for (const re of ASIDES) for (const m of text.matchAll(re)) ranges.push([m.index, m.index + m[0].length]);
  return ranges;
}

function attribute(
  text: string,
  mention: Mention,
  prevEnd: number,
  hits: MetricHit[],
  asides: [number, number][],
): Attribution | null {
  const after = text.slice(mention.end);
  // The noun right after the amount owns it: "$1.1 billion in free cash flow", "a $0.15 charge".
  const cue = FORWARD_CUE.exec(after);
  const at = mention.end + (cue ? cue[0].length : /^\s*/.exec(after)![0].length);
  const fwd = hits.find((h) => h.start === at);
  if (fwd && (cue || fwd.metric === null)) {
    if (fwd.metric === null || EFFECT_AFTER.test(text.slice(fwd.end))) return null;
    return { hit: fwd, how: "forward" };
  }
  let nearest: MetricHit | undefined;
  for (const h of hits) {
    if (h.end > mention.start) break;
    if (asides.some(([s, e]) => h.start >= s && h.end <= e)) continue;
    nearest = h;
  }
  if (!nearest) return null;
  if (nearest.metric === null) return null;
  const gap = text.slice(prevEnd, mention.start);
  // "grew 28% to $3.4 billion": the landing amount belongs to the metric as directly as the movement did.
  if (nearest.start >= prevEnd || LANDING.test(gap)) return { hit: nearest, how: "direct" };
  return { hit: nearest, how: "inherited" };
}

function basisOf(text: string, upTo: number): FigureBasis | null {
  const before = text.slice(0, upTo);
  const adj = lastIndex(before, ADJUSTED);
  const gaap = lastIndex(before, GAAP);
  if (adj < 0 && gaap < 0) {
    const rest = text.slice(upTo);
    if (ADJUSTED.test(rest)) return "adjusted";
    if (GAAP.test(rest)) return "gaap";
    return null;
  }
  return adj > gaap ? "adjusted" : "gaap";
}

function lastIndex(text: string, re: RegExp): number {
  const g = new RegExp(re.source, re.flags.includes("g") ? re.flags : `${re.flags}g`);
  let at = -1;
  for (const m of text.matchAll(g)) at = m.index;
  return at;
}

function segmentName(
  text: string,
  hit: MetricHit,
  how: Attribution["how"],
  mentionStart: number,
): string | null {
  if (how === "forward") {
    const subj = SEGMENT_SUBJECT.exec(text.slice(0, mentionStart));
    return subj ? cleanSegment(subj[1]!) : null;
  }
  const before = SEGMENT_BEFORE.exec(text.slice(0, hit.start));
  if (before) {
    const name = cleanSegment(before[1]!);
    if (name) return name;
  }
  const after = SEGMENT_AFTER.exec(text.slice(hit.end));
  return after ? cleanSegment(after[1]!) : null;
}

function cleanSegment(raw: string): string | null {
  const words = raw.trim().split(/\s+/);
  while (words.length > 0 && SEGMENT_NOT.has(words[0]!.toLowerCase())) words.shift();
  if (words.length === 0) return null;
  if (words.some((w) => SEGMENT_NOT.has(w.toLowerCase()))) return null;
  const name = words.join(" ");
  return name[0]!.toUpperCase() + name.slice(1);
}

/** The clause the amount is in: from the previous clause break (`;`, `. `, ", while") to the amount. */
function clauseBefore(text: string, start: number): string {
  const before = text.slice(0, start);
  const cut = Math.max(before.lastIndexOf(";"), before.lastIndexOf(". "), before.lastIndexOf(" while "));
  return cut < 0 ? before : before.slice(cut + 1);
}

function periodOf(
  text: string,
  mention: Mention,
  gap: string,
  kind: FigureKind,
  isGuidance: boolean,
): FigurePeriod {
  if (isGuidance) return FULL_YEAR.test(text) ? "full_year" : "next_quarter";
  const afterToBreak = text.slice(mention.end).split(/[,;]|\band\b|\bup\b|\bdown\b/)[0] ?? "";
  if (kind === "level") {
    const comparedWith = COMPARATOR_BEFORE.test(gap);
    const clause = clauseBefore(text, mention.start);
    if (
      comparedWith ||
      YEAR_AGO.test(afterToBreak) ||
      YEAR_AGO.test(clause) ||
      QUARTER_AGO.test(afterToBreak)
    ) {
      if (QUARTER_AGO.test(afterToBreak) || (comparedWith && QUARTER_AGO.test(text.slice(mention.end)))) {
        return "prior_quarter";
      }
      return "prior_year_quarter";
    }
  }
  if (PRIOR_FULL_YEAR.test(text)) return "prior_year";
  if (FULL_YEAR.test(clauseBefore(text, mention.start)) || FULL_YEAR.test(afterToBreak)) return "full_year";
  return "quarter";
}

function unitFits(metric: FigureMetric, kind: FigureKind, mention: Mention): FigureUnit | null {
  if (kind === "change") {
    if (isMarginMetric(metric))
      return mention.unit === "bps" || mention.unit === "percent" ? mention.unit : null;
    return mention.unit === "percent" ? "percent" : mention.unit === "usd" ? "usd" : null;
  }
  const allowed = LEVEL_UNITS[metric];
  if (!allowed.includes(mention.unit)) return null;
  if (isPerShareMetric(metric) && mention.unit === "usd") {
    // "EPS was $1.99": a per-share amount said without "per share". With a scale word it is a total, not EPS.
    if (mention.scale !== "one" || mention.value >= 1000) return metric === "dividend" ? "usd" : null;
    return "usd_per_share";
  }
  return mention.unit;
}

/** The figures of one sentence, in order; `index` numbers them within the sentence for stable ids. */
export function extractFigures(sentence: SentenceInput): Figure[] {
  const { text } = sentence;
  const mentions = findMentions(text);
  if (mentions.length === 0) return [];
  const hits = findMetricWords(text);
  const isQuestion = HEDGE_QUESTION.test(text);
  const guidanceAt = text.search(GUIDANCE_CUE);
  const asides = asideRanges(text);
  const segmentsByHit = new Map<MetricHit, string>();
  const figures: Figure[] = [];
  let prevEnd = 0;
  for (const mention of mentions) {
    const gap = text.slice(prevEnd, mention.start);
    const thisPrevEnd = prevEnd;
    prevEnd = mention.end;
    if (RESTATED_AWAY.test(gap) || TOLERANCE.test(gap)) continue;
    const attribution = attribute(text, mention, thisPrevEnd, hits, asides);
    if (!attribution) continue;
    let metric = attribution.hit.metric!;
    // "a net loss of $0.12 per share": an amount per share of earnings is EPS whatever the noun before it.
    if (mention.unit === "usd_per_share" && (metric === "net_income" || metric === "operating_income"))
      metric = "eps";
    const after = text.slice(mention.end);
    const isChangeWord = CHANGE_BEFORE.test(gap) || CHANGE_AFTER.test(after);
    const landed = (LANDED_AT.test(gap) || LANDING.test(gap)) && !CHANGE_BEFORE.test(gap);
    let kind: FigureKind = mention.unit === "bps" ? "change" : isChangeWord && !landed ? "change" : "level";
    // A revenue-like metric stated in percent can only be a movement ("revenue grew 12%").
    if (kind === "level" && mention.unit === "percent" && !isMarginMetric(metric)) {
      if (mention.isApproximate || /\bgrow|growth|increase|decline/i.test(gap + after.slice(0, 30)))
        kind = "change";
    }
    const unit = unitFits(metric, kind, mention);
    if (unit === null) continue;
    const isGuidance = guidanceAt >= 0 && guidanceAt < mention.start && !COMPARATOR_BEFORE.test(gap);
    const period = periodOf(text, mention, gap, kind, isGuidance);
    let segment: string | null = null;
    if (metric === "revenue") {
      segment =
        segmentsByHit.get(attribution.hit) ??
        segmentName(text, attribution.hit, attribution.how, mention.start);
      if (segment) {
        metric = "segment_revenue";
        segmentsByHit.set(attribution.hit, segment);
      }
    }
    let confidence = attribution.how === "direct" ? 0.9 : attribution.how === "forward" ? 0.85 : 0.75;
    if (attribution.how === "inherited" && kind === "level" && !isGuidance && period === "quarter") {
      // "…revenue was $4.2 billion and $3.9 billion …": a second level inheriting the metric is often something else.
      confidence = 0.6;
    }
    // "…, or $2.45 per diluted share": the unit itself says EPS.
    if (metric === "eps" && mention.unit === "usd_per_share") confidence = Math.max(confidence, 0.85);
    if (isQuestion) confidence -= 0.3;
    if (isGuidance && PRIOR_GUIDANCE.test(gap)) confidence = Math.min(confidence, 0.5);
    if (!isGuidance && PAST_GUIDANCE.test(gap)) confidence = Math.min(confidence, 0.5);
    if (mention.isApproximate) confidence = Math.min(confidence, 0.8);
    let value = mention.value;
    let low = mention.low;
    let high = mention.high;
    const negative =
      (kind === "change" && NEGATIVE_CHANGE.test(gap.slice(-40))) ||
      (kind === "level" && /\b(?:loss|negative|minus)\b[^$\d]{0,25}$/i.test(gap));
    if (negative) {
      value = -value;
      if (low !== undefined && high !== undefined) [low, high] = [-high, -low];
    }
    const figure: Figure = {
      id: `${sentence.sequence}:${figures.length}`,
      metric,
      segment,
      kind,
      value,
      unit,
      scale: mention.scale,
      period,
      basis: basisOf(text, mention.start),
      isGuidance,
      isApproximate: mention.isApproximate,
      sequence: sentence.sequence,
      startMs: sentence.startMs,
      quote: mention.quote,
      confidence: Math.round(Math.max(0, Math.min(1, confidence)) * 100) / 100,
    };
    if (low !== undefined && high !== undefined) {
      figure.low = low;
      figure.high = high;
    }
    figures.push(figure);
  }
  return figures;
}

export const isFact = (f: Pick<Figure, "confidence">) => f.confidence >= FIGURE_CONFIDENCE_THRESHOLD;
