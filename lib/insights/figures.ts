/**
 * Figures stated in one sentence: each amount (./mentions) gets a metric from the words around it (./metrics), the
 * part of the company it is about (./segments), a kind (the level or a change), a period relative to the call, a
 * basis (GAAP or adjusted), whether it is guidance (./guidance), and a confidence. Rules, not a model: they are fast
 * (a few hundredths of a millisecond a sentence), deterministic, and each decision can be explained to the analyst
 * who doubts it. docs/insights.md says what each rule is for and how well they do on real calls.
 *
 * Honest by design: what the rules cannot attribute is dropped, and what they attribute on thin evidence gets a
 * confidence below FIGURE_CONFIDENCE_THRESHOLD, which the UI shows as unverified rather than as fact.
 */
import type { Figure, FigureKind, FigureMetric, FigureUnit } from "@/lib/schemas/insights";
import {
  asideRanges,
  AS_PERCENT_OF,
  attribute,
  BLOCKED,
  CHANGE_OF_FORWARD,
  clauseStartOf,
  FORWARD_CHANGE,
  isImpact,
  PART_GREW,
  REVENUE_NOUN,
  SHARE_OF,
  unnamed,
} from "./figure-attribution";
import { basisOf, respectiveBases } from "./figure-basis";
import {
  ALTERNATIVE,
  CHANGE_AFTER,
  CHANGE_BEFORE,
  LANDING,
  NEGATIVE_AFTER,
  NEGATIVE_CHANGE,
  NEGATIVE_LEVEL,
  PRE_CHANGE,
  PRE_CHANGE_NEGATIVE,
} from "./figure-kind";
import type { SentenceContext, SentenceInput } from "./figure-context";
import { COMPARATOR_BEFORE, COMPARATOR_THROUGH, periodOf } from "./figure-period";
import { backwardSpans, forwardCues, PRIOR_GUIDANCE } from "./guidance";
import { findMentions, type Mention } from "./mentions";
import {
  canBeRatioOfRevenue,
  findMetricWords,
  isPerShareMetric,
  isRatioMetric,
  METRICS,
  type MetricHit,
} from "./metrics";
import { PART_AFTER_AMOUNT, segmentOf } from "./segments";

export type { SentenceContext, SentenceInput } from "./figure-context";
export { FIGURE_CONFIDENCE_THRESHOLD, isFact } from "./fact";

/** A sentence that reports what happened, not what is expected. */
export const PAST_RESULT =
  /\b(?:was|were|grew|rose|fell|came in|had|saw|did|paid|made|took|spent|sold|bought|built|brought|got|won|led|left|kept|[a-z]{3,}ed|(?:this|the) quarter|(?:first|second|third|fourth) quarter(?! of (?:20\d\d|fiscal))|year[- ]to[- ]date)\b/i;

// --- Guidance -----------------------------------------------------------------------------------------------------

/** "plus or minus 50 basis points": a tolerance around the figure before it, not a figure. */
const TOLERANCE = /\bplus or minus\s*$/i;
const RESTATED_AWAY = /\b(?:not|rather than|instead of|(?:and )?not the)\s*$/i;
/** A figure the speaker said the company would reach, restated as context: "within our guidance range of …". */
const PAST_GUIDANCE =
  /\b(?:guidance|outlook|guided|expectations?|forecast(?:ed)?|targets?)\b(?:\s+(?:range\s+)?(?:of|range of|range|midpoint of|for))?\s*$/i;

function unitFits(
  metric: FigureMetric,
  kind: FigureKind,
  mention: Mention,
  ratioOfRevenue: boolean,
): FigureUnit | null {
  const spec = METRICS[metric];
  if (kind === "change") {
    if (isRatioMetric(metric) || ratioOfRevenue)
      return mention.unit === "bps" || mention.unit === "percent" ? mention.unit : null;
    if (mention.unit === "percent") return "percent";
    if (mention.unit === "usd" && spec.level.includes("usd")) return "usd";
    if (mention.unit === "usd_per_share" && spec.level.includes("usd_per_share")) return "usd_per_share";
    if (mention.unit === "count" && spec.level.includes("count")) return "count";
    return null;
  }
  if (ratioOfRevenue && mention.unit === "percent") return "percent";
  if (!spec.level.includes(mention.unit)) return null;
  if (isPerShareMetric(metric) && mention.unit === "usd") {
    // "EPS was $1.99": a per-share amount said without "per share". With a scale word it is a total, not EPS.
    if (mention.scale !== "one" || mention.value >= 1000) return metric === "dividend" ? "usd" : null;
    return "usd_per_share";
  }
  return mention.unit;
}

const HEDGE_QUESTION = /\?\s*$/;
const AVAILABLE_UNDER =
  /^\s*(?:of\s+)?(?:[\w-]+\s+){0,2}(?:available|undrawn|unused|remaining|of (?:capacity|availability)) (?:under|on|through|from|in)\b/i;
/**
 * "We expect the Utilities segment to contribute $1.70 to $1.80 per share", "our other businesses to have a loss of
 * …": a part of the company named as the one that earns the amount.
 */
const PART_EXPECTED =
  /\b(?:expects?|anticipates?|sees?|forecasts?)\s+(?!(?:it|us|this|that|them|these|those|we|the company|earnings|EPS|revenues?|sales|margins?|results)\s+to\b)(?:the\s+|our\s+)?([A-Za-z][\w&'.-]*(?:\s+[\w&'.-]+){0,4}?)\s+to\s+(?:contribute|have|generate|earn|deliver|add|produce|report|post)\b/i;
/** Metrics a segment's discussion states for the segment. */
const SEGMENT_LIKELY: ReadonlySet<FigureMetric> = new Set(["revenue", "operating_income"]);
const COMPANY_CUE =
  /\b(?:total|consolidated|overall|company[- ]wide|total[- ]company|enterprise[- ]wide|for the company)\b/i;
/** Profits said in percent are their margins. */
const MARGIN_OF: Partial<Record<FigureMetric, FigureMetric>> = {
  gross_profit: "gross_margin",
  operating_income: "operating_margin",
  ebitda: "ebitda_margin",
  net_income: "net_margin",
};
const BEAT_BY =
  /\b(?:exceed(?:ed|ing|s)?|beat(?:ing|s)?|surpass(?:ed|ing)?|above|ahead of|below|short of|missed)\b[^.;$]{0,70}\bby\s+(?:(?:approximately|about|roughly|nearly|almost|over|more than)\s+)?$/i;
/** "sales, including realized hedging losses, were $2.4 billion": a loss inside an aside does not make it negative. */
const LOSS_ASIDE = /\b(?:including|excluding|net of|before|after)\b[^,.;$]*\b(?:loss(?:es)?|outflows?)\b/i;
const OF_BASE_YEAR =
  /^\s*of\s+(?:the\s+)?(?:prior[- ]year|last year|previous year|(?:fiscal\s+)?20\d\d)(?:'s)?(?:\s+(?:levels?|period|quarter|sales|revenues?|volumes?))?\b/i;
const INDUSTRY_BEFORE = /\b(?:industry|industry-wide|peers?|competitors?'?)\s+(?:[\w-]+\s+){0,2}$/i;
const THIRD_PARTY = /\baccording to\b|\bindustry (?:data|sources|reports?)\b/i;

/** The figures of one sentence, in order; ids number them within the sentence. */
export function extractFigures(sentence: SentenceInput, context: SentenceContext = {}): Figure[] {
  const { text } = sentence;
  const mentions = findMentions(text);
  if (mentions.length === 0) return [];
  const hits = findMetricWords(text);
  const isQuestion = HEDGE_QUESTION.test(text);
  const cues = forwardCues(text);
  const asides = asideRanges(text);
  const segmentsByHit = new Map<MetricHit, ReturnType<typeof segmentOf>>();
  const kindByHit = new Map<MetricHit, FigureKind>();
  let sentenceSegment: { name: string; metric: FigureMetric } | null = null;
  // Third-party figures ("according to Real Capital Analytics") are the market's, not the company's.
  if (THIRD_PARTY.test(text)) return [];
  const figures: Figure[] = [];
  let prevEnd = 0;
  let lastWasImpact = false;
  let lastWasShare = false;
  const respectively = respectiveBases(text, mentions);
  // Where the last amount that is no figure ended (an effect, a share, a noun not ours owning it).
  let notFigureEnd = -1;
  for (const [i, mention] of mentions.entries()) {
    const gap = text.slice(prevEnd, mention.start);
    const thisPrevEnd = prevEnd;
    prevEnd = mention.end;
    if (RESTATED_AWAY.test(gap) || TOLERANCE.test(gap)) continue;
    // "exceeding the midpoint of our guidance by $0.08 per share": a beat or a miss, not a figure of the company.
    if (BEAT_BY.test(gap)) continue;
    // "discrete tax items of $95 million, or $0.22 per share": the other form of an amount that is no figure.
    if (notFigureEnd === thisPrevEnd && /^\s*,?\s*or\s*$/i.test(gap)) {
      notFigureEnd = mention.end;
      continue;
    }
    // "… and $50 million available under our revolving credit facility": availability, not a figure.
    if (AVAILABLE_UNDER.test(text.slice(mention.end, mention.end + 60))) {
      notFigureEnd = mention.end;
      continue;
    }
    // "customers with more than $1 million in ARR": a threshold, not a figure.
    if (/\bwith (?:more than|over|at least|greater than|in excess of)\s*$/i.test(gap)) continue;
    const clauseStart = clauseStartOf(text, mention.start);
    const attributed = attribute(text, mention, thisPrevEnd, hits, asides);
    if (attributed === BLOCKED) {
      notFigureEnd = mention.end;
      continue;
    }
    // "… lowered revenue by $14 million and EBITDA by $3 million": the list goes on with the same effect.
    const impact: boolean =
      isImpact(text, mention, attributed?.hit ?? null, clauseStart) ||
      (lastWasImpact && /^\s*,?\s*(?:and\s+[\w&\s-]{1,30}?\s+by|or)\s*$/i.test(gap));
    lastWasImpact = impact;
    if (impact) {
      notFigureEnd = mention.end;
      continue;
    }
    const attribution = attributed ?? unnamed(text, mention, clauseStart);
    if (!attribution) continue;
    let metric = attribution.hit.metric!;
    const hitText = attribution.hit.text;
    if (
      mention.unit === "usd" &&
      mention.scale === "one" &&
      mention.value < 1000 &&
      !isPerShareMetric(metric)
    )
      continue;
    // "a net loss of $105 million, or $1.39 per diluted share": an amount per share of earnings is EPS.
    if (mention.unit === "usd_per_share" && !isPerShareMetric(metric)) {
      if (metric === "net_income" || metric === "operating_income" || metric === "revenue") metric = "eps";
      else continue;
    }
    const after = text.slice(mention.end);
    const afterAlt = after.replace(ALTERNATIVE, " ");
    // "$0.71 due to lower revenues": a per-share amount explained by a cause is a bridge item, not EPS.
    if (
      mention.unit === "usd_per_share" &&
      /^\s*(?:of \w+ )?(?:due to|from|related to|attributable to|associated with|driven by|reflecting)\b/i.test(
        after,
      )
    )
      continue;
    // "30% of total revenue": a share of a whole. Kept only as an expense ratio ("SG&A was 22% of sales").
    let ratioOfRevenue = AS_PERCENT_OF.test(text.slice(attribution.hit.end, mention.start));
    const share = mention.unit === "percent" ? SHARE_OF.exec(after) : null;
    // "… represented 38% of the total, up from 35% last year": the earlier share, compared.
    const shareAgain =
      lastWasShare &&
      mention.unit === "percent" &&
      /\b(?:up|down) from\s*$|\bcompared (?:to|with)\s*$|\bversus\s*$/i.test(gap);
    lastWasShare = false;
    // "sales of about 82% of prior year", "at 90% of 2019 levels": a ratio to a base year, not a movement.
    if (
      mention.unit === "percent" &&
      OF_BASE_YEAR.test(after) &&
      !isRatioMetric(metric) &&
      !COMPARATOR_BEFORE.test(gap)
    )
      continue;
    // "industry same-restaurant sales decreased 26%": the market's figure, not the company's.
    if (INDUSTRY_BEFORE.test(text.slice(Math.max(0, attribution.hit.start - 40), attribution.hit.start)))
      continue;
    if (share || shareAgain) {
      if (!share || !REVENUE_NOUN.test(share[1]!) || !canBeRatioOfRevenue(metric)) {
        lastWasShare = true;
        notFigureEnd = mention.end;
        continue;
      }
      ratioOfRevenue = true;
    }
    const forwardAfter = attribution.how === "forward" ? text.slice(attribution.hit.end) : "";
    const forwardBetween =
      attribution.how === "forward" ? text.slice(mention.end, attribution.hit.start) : "";
    // "increasing earnings $27.5 million", "we reduced debt by $33 million": the verb before the metric.
    const preChange =
      attribution.how !== "forward" &&
      /^\s*(?:(?:in|at|for) (?:the |our )?[\w&' -]{1,40}? (?:segment|business|division|region)\s+)?(?:(?:by|of|was|were|to)\s+)?(?:(?:approximately|about|roughly|nearly|almost|over|more than)\s+)?$/i.test(
        text.slice(attribution.hit.end, mention.start),
      )
        ? PRE_CHANGE.exec(
            text.slice(Math.max(clauseStart, attribution.hit.start - 60), attribution.hit.start),
          )
        : null;
    // "organic revenue performance was negative $60.6 million": the metric's movement named after it.
    const postChange =
      attribution.how !== "forward" &&
      attribution.hit.text !== "" &&
      mention.start - attribution.hit.end < 40 &&
      /^\s+(?:growth|performance|change|increase|decline|decrease|improvement)\b/i.test(
        text.slice(attribution.hit.end),
      );
    const isChangeWord =
      CHANGE_BEFORE.test(gap) ||
      CHANGE_AFTER.test(afterAlt) ||
      preChange !== null ||
      (attribution.how === "forward" &&
        (FORWARD_CHANGE.test(forwardAfter) || CHANGE_OF_FORWARD.test(forwardBetween)));
    const landed = LANDING.test(gap) && !CHANGE_BEFORE.test(gap);
    const previous = figures[figures.length - 1];
    // "an increase of $3.6 million or $0.11 per diluted share": the alternative form of the amount before it.
    const alternative =
      previous !== undefined && previous.sequence === sentence.sequence && /^\s*,?\s*or\s*$/i.test(gap);
    let kind: FigureKind =
      alternative && previous
        ? previous.kind
        : mention.unit === "bps"
          ? "change"
          : (isChangeWord || postChange) && !landed
            ? "change"
            : "level";
    if (kind === "level" && mention.unit === "percent" && MARGIN_OF[metric]) {
      // "EBITDA was $163 million or 19.9%", "50% gross profit": a profit in percent with no movement is its margin.
      metric = MARGIN_OF[metric]!;
    } else if (kind === "level" && mention.unit === "percent" && canBeRatioOfRevenue(metric)) {
      // "capital expenditures at 3% to 4%", "an operating expense ratio of 17%": an expense ratio to revenue.
      ratioOfRevenue = true;
    }
    // A money metric, a volume or a price said in percent can only be a movement ("revenue grew 12%").
    if (kind === "level" && mention.unit === "percent" && !isRatioMetric(metric) && !ratioOfRevenue)
      kind = "change";
    if (kind === "level" && METRICS[metric].level.length === 0) kind = "change";
    const unit = unitFits(metric, kind, mention, ratioOfRevenue);
    if (unit === null) continue;

    const referredBack = backwardSpans(text).some(([, e]) => e <= mention.start && mention.start - e < 40);
    const cueBefore =
      cues.some((c) => c < mention.start) || (context.outlook === true && !PAST_RESULT.test(text));
    const priorGuidance = PRIOR_GUIDANCE.test(text.slice(Math.max(0, mention.start - 90), mention.start));
    // "… from an adjusted gross margin of 34.1%": the comparison reads through the metric's name.
    const gapBare =
      attribution.hit.start >= thisPrevEnd ? text.slice(thisPrevEnd, attribution.hit.start) : gap;
    const comparedWith =
      COMPARATOR_BEFORE.test(gap) ||
      (attribution.how !== "forward" &&
        (COMPARATOR_BEFORE.test(gapBare) || COMPARATOR_THROUGH.test(gapBare)) &&
        /^\s*(?:of|was|were)?\s*$/i.test(text.slice(attribution.hit.end, mention.start)));
    // "… above the high end of our guidance range of …": a forecast referred back to, stated as context.
    const isGuidance = ((cueBefore && !comparedWith) || priorGuidance) && !referredBack;
    const next = mentions[i + 1];
    const window = {
      before: text.slice(clauseStart, mention.start),
      after: text.slice(mention.end, next ? next.start : text.length),
    };
    // "… a net loss of $12.2 million or $0.47 per share for the same period": the alternative form of the amount
    // before it shares its period.
    const reading =
      alternative && previous
        ? { period: previous.period, horizonFrom: undefined }
        : periodOf(metric, text, mention, window, comparedWith, kind, isGuidance, context);
    const { period, horizonFrom } = reading;

    let segment: string | null = null;
    let segmentHow: string | null = null;
    if (!segmentsByHit.has(attribution.hit)) {
      const grew =
        attribution.hit.text === "" && metric === "revenue"
          ? PART_GREW.exec(text.slice(clauseStart, mention.start).trimStart())
          : null;
      segmentsByHit.set(
        attribution.hit,
        grew
          ? { name: grew[1]!.trim(), how: "subject" }
          : attribution.hit.text === ""
            ? null
            : segmentOf(text, attribution.hit.start, attribution.hit.end, clauseStart, context.company),
      );
    }
    let segmentReading = segmentsByHit.get(attribution.hit);
    // "Latin America net sales rose 9% with 6% organic growth": the sentence's segment carries over to
    // the same metric named again, unless the company's total is named.
    if (
      !segmentReading &&
      sentenceSegment &&
      sentenceSegment.metric === metric &&
      !/\b(?:total|consolidated|overall|company)\b/i.test(
        text.slice(Math.max(0, attribution.hit.start - 25), attribution.hit.start),
      )
    )
      segmentReading = { name: sentenceSegment.name, how: "subject" };
    if (!segmentReading && (metric === "eps" || metric === "net_income" || metric === "operating_income")) {
      const expected = PART_EXPECTED.exec(text.slice(clauseStart, mention.start));
      if (expected) segmentReading = { name: expected[1]!.trim(), how: "subject" };
    }
    // "sales of roughly $640 million in the Industrial segment": the part named after the amount.
    if (!segmentReading && attribution.hit.text !== "") {
      const after = PART_AFTER_AMOUNT.exec(text.slice(mention.end));
      if (after) segmentReading = { name: after[1]!.trim(), how: "after" };
    }
    if (segmentReading) {
      segment = segmentReading.name;
      segmentHow = segmentReading.how;
      sentenceSegment = { name: segmentReading.name, metric };
    }
    if (metric === "revenue" && segment) metric = "segment_revenue";

    // Confidence: how directly the metric was named, then what makes the reading doubtful.
    let confidence = attribution.how === "inherited" ? 0.75 : 0.9;
    // "Borealis has $210 million in annual sales, and we deployed $0.9 billion …": a metric from another clause.
    if (attribution.how === "inherited" && attribution.hit.end <= clauseStart && attribution.hit.text !== "")
      confidence = 0.6;
    if (attribution.how === "inherited" && kind === "level" && !isGuidance && period === "quarter") {
      // "…revenue was $4.2 billion and $3.9 billion …": a second level inheriting the metric is often something else.
      const sameKindBefore = kindByHit.get(attribution.hit) === "level";
      if (sameKindBefore) confidence = 0.6;
    }
    kindByHit.set(attribution.hit, kind);
    if (metric === "eps" && mention.unit === "usd_per_share") confidence = Math.max(confidence, 0.85);
    if (segmentHow === "subject") confidence = Math.min(confidence, 0.8);
    if (segmentHow === "weak") confidence = Math.min(confidence, 0.75);
    // A company-level reading in the middle of a segment's discussion is doubtful: shown, but not as fact.
    if (!segment && !isGuidance && context.segment && SEGMENT_LIKELY.has(metric) && !COMPANY_CUE.test(text))
      confidence = Math.min(confidence, 0.6);
    if (isQuestion) confidence -= 0.3;
    if (priorGuidance) confidence = Math.min(confidence, 0.4);
    if (!isGuidance && (PAST_GUIDANCE.test(gap) || referredBack)) confidence = Math.min(confidence, 0.5);
    if (mention.isApproximate) confidence = Math.min(confidence, 0.8);
    if (isGuidance && horizonFrom === "default") confidence = Math.min(confidence, 0.85);
    // Results are not ranges: a range read as no guidance is a forecast whose cue was missed, or one restated.
    if (!isGuidance && mention.low !== undefined && mention.high !== undefined)
      confidence = Math.min(confidence, 0.6);

    let value = mention.value;
    let low = mention.low;
    let high = mention.high;
    const lossMetric = /\bloss\b/i.test(hitText);
    const negative = mention.signed
      ? false
      : kind === "change"
        ? NEGATIVE_CHANGE.test(gap.slice(-40)) ||
          NEGATIVE_AFTER.test(afterAlt) ||
          (preChange !== null && PRE_CHANGE_NEGATIVE.test(preChange[1]!)) ||
          (attribution.how === "forward" && NEGATIVE_AFTER.test(forwardAfter))
        : lossMetric || (NEGATIVE_LEVEL.test(gap) && !LOSS_ASIDE.test(gap));
    // A loss that shrank is earnings that grew: "net loss declined $77 million".
    const flip = kind === "change" && lossMetric ? !negative : negative;
    if (flip) {
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
      basis:
        (respectively ? respectively.bases[i - respectively.at] : undefined) ?? basisOf(text, mention.start),
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
