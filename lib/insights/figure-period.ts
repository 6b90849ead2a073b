/**
 * The period a figure is of, relative to the call: the quarter reported, a year or a quarter ago, the full year,
 * another span; a guidance figure's horizon. Read from the words around the amount and the call's own fiscal
 * quarter (docs/insights.md, "Periods").
 */
import type { FigureKind, FigureMetric, FigurePeriod } from "@/lib/schemas/insights";
import type { SentenceContext } from "./figure-context";
import { horizonOf } from "./guidance";
import type { Mention } from "./mentions";
import { QUARTER_ORDINALS } from "./ordinals";

export const COMPARATOR_BEFORE =
  /\b(?:compared? (?:with|to)|compares (?:with|to)|comparing to|versus|vs\.?|from|against|relative to|on top of|improved from|up from|down from)\s*(?:the\s+|a\s+|an\s+|our\s+)?(?:(?:adjusted|GAAP|non-GAAP|reported|net|total|prior[- ]year|last year's|year-ago)\s+)*(?:(?:net |adjusted |seasonal |operating |GAAP |non-GAAP |reported )?(?:loss|outflow) of\s+)?(?:loss per (?:diluted )?share of\s+)?(?:(?:just|approximately|about|roughly|nearly|almost|over|under|more than|less than)\s+)*$/i;
/** "… from pro forma Q2 2024 sales of $412 million": a comparison reads through the words before the metric. */
export const COMPARATOR_THROUGH =
  /\b(?:compared? (?:with|to)|compares (?:with|to)|versus|vs\.?|from|against|relative to)\s+(?:[\w'’-]+\s+){0,4}$/i;
/** Said of a comparison amount: which period it is ("a year ago", "last quarter"). */
const YEAR_AGO =
  /\b(?:a year ago|year[- ]ago|prior[- ]year|last year'?s?|same (?:quarter|period) (?:of |a |last )?(?:last )?year|same (?:quarter|period) (?:in|of) (?:20\d\d|fiscal)|previous year|(?:quarter|period) (?:of|in) last year)\b/i;
const QUARTER_AGO =
  /\b(?:last quarter|prior quarter|previous quarter|sequential(?:ly)?|a quarter ago|linked[- ]quarter)\b/i;
/** Spans that are neither the quarter nor a year: year to date, a half, two years, after the quarter ended. */
const OTHER_PERIOD =
  /\b(?:year[- ]to[- ]date|YTD|(?:first|last) (?:six|nine|6|9) months|(?:first|second|back) half|six[- ]month|nine[- ]month|trailing (?:twelve|12)[- ]months?|TTM|LTM|last (?:twelve|12) months|two[- ]year(?: stack(?:ed)?| basis)?|2[- ]year stack|on a stacked basis|versus 2019|compared (?:to|with) (?:the (?:\w+ )?(?:quarter|period) (?:of|in) )?2019|since the end of the quarter|more recently|to date|quarter[- ]to[- ]date|so far this|in (?:January|February|March|April|May|June|July|August|September|October|November|December)\b|run[- ]rate|(?:two|three|four|five|several|a few|\d+) years ago|pre-?(?:COVID|pandemic)|(?:over )?the (?:past|last) (?:two|three|four|five|several|few|\d+) years|cumulative)\b/i;
const FULL_YEAR_RESULT =
  /\b(?:(?:the|this) (?:full |fiscal )?year as a whole|year as a whole|full[- ]year|for the (?:full |fiscal |calendar )?year|fiscal (?:year )?(?:20\d\d|'\d\d)|for (?:20\d\d|'\d\d)|in (?:20\d\d|'\d\d)(?! (?:first|second|third|fourth) quarter)|this year|calendar (?:year )?20\d\d|annual)\b/i;

const CHANGED_OUTLOOK =
  /\b(?:rais|lift|boost|upgrad|lower|cut|increas|reduc|reaffirm|reiterat|maintain|narrow|tighten|updat|confirm)\w*\s+(?:our\s+|the\s+|its\s+)?(?:[\w-]+\s+){0,3}(?:outlook|guidance)\b/i;

const YEAR_NAMED =
  /\b(?:over|versus|vs\.?|compared (?:to|with)|from|in|for|during) (?:fiscal (?:year )?)?(20\d\d)\b(?! (?:first|second|third|fourth) quarter)/gi;

/**
 * On a fourth-quarter call the year's results are gone through beside the quarter's: a sentence that names no quarter
 * and measures against the year before the call's ("a 25% increase over 2018") or states the call's year ("in 2019")
 * is about the year.
 */
export function namesTheYear(text: string, context: SentenceContext): boolean {
  if (context.fiscalQuarter !== 4 || context.fiscalYear == null || /\bquarter\b/i.test(text)) return false;
  for (const m of text.matchAll(YEAR_NAMED)) {
    const year = Number(m[1]);
    if (year === context.fiscalYear || year === context.fiscalYear - 1) return true;
  }
  return false;
}

export interface PeriodReading {
  period: FigurePeriod;
  /** The guidance horizon came from the sentences before, or from nothing at all. */
  horizonFrom?: "sentence" | "context" | "default";
}

/** Balance-sheet figures are at a date: the quarter's end, whatever year's results are being gone through. */
const POINT_IN_TIME: ReadonlySet<FigureMetric> = new Set([
  "cash",
  "liquidity",
  "debt",
  "inventory",
  "backlog",
  "loans",
  "deposits",
  "aum",
  "subscribers",
  "arr",
]);

export function periodOf(
  metric: FigureMetric,
  text: string,
  mention: Mention,
  window: { before: string; after: string },
  comparedWith: boolean,
  kind: FigureKind,
  isGuidance: boolean,
  context: SentenceContext,
): PeriodReading {
  if (isGuidance) {
    const local = horizonOf(window.after) ?? horizonOf(window.before);
    if (local) return { period: local, horizonFrom: "sentence" };
    const whole = horizonOf(text);
    if (whole) return { period: whole, horizonFrom: "sentence" };
    // "We're raising our free cash flow outlook to …": an outlook changed or affirmed mid-year is the year's, whatever
    // quarter the speaker guided a sentence ago.
    if (CHANGED_OUTLOOK.test(text)) return { period: "full_year", horizonFrom: "sentence" };
    if (context.horizon) return { period: context.horizon, horizonFrom: "context" };
    // Unsaid, an outlook is most often the year's; never next quarter's, which would meet its consensus.
    return { period: "full_year", horizonFrom: "default" };
  }
  const near = window.after.split(/[;,]|\band\b|\bup\b|\bdown\b|\bor\b/)[0] ?? "";
  const tail = window.after.slice(0, 80);
  if (OTHER_PERIOD.test(near) || OTHER_PERIOD.test(window.before)) return { period: "other" };
  // "despite a more difficult 4.5% comparison": last year's figure, which this year's is compared with.
  if (/^\s*(?:comparison|compare|comp)\b/i.test(window.after)) return { period: "prior_year_quarter" };
  if (kind === "level") {
    // Said outright: "a year ago", "in the prior-year quarter", "last quarter".
    if (YEAR_AGO.test(near.slice(0, 45))) {
      if (
        /\b(?:last|prior|previous) (?:fiscal )?year\b(?! (?:quarter|period))/i.test(near) &&
        !/\bquarter\b/i.test(near)
      )
        return { period: FULL_YEAR_RESULT.test(window.before) ? "prior_year" : "prior_year_quarter" };
      return { period: "prior_year_quarter" };
    }
    if (comparedWith && QUARTER_AGO.test(tail)) return { period: "prior_quarter" };
    // "In the year-ago quarter, revenue was …", "Last year's third quarter revenue of …".
    if (
      !comparedWith &&
      /^\s*(?:in the year[- ]ago (?:quarter|period)|(?:in )?(?:last|the prior) year's)\b/i.test(window.before)
    )
      return { period: "prior_year_quarter" };
    // Dated: "in the third quarter of 2020" against the call's own quarter.
    const dated =
      datedPeriod(near.slice(0, 60), context) ??
      (comparedWith ? null : datedPeriod(window.before, context, true));
    if (dated) return { period: dated };
    if (comparedWith) {
      const yearly =
        !/\bsame (?:quarter|period)\b/i.test(tail) &&
        (FULL_YEAR_RESULT.test(window.before) || FULL_YEAR_RESULT.test(text.slice(0, mention.start)));
      if (yearly && !/\bquarter\b/i.test(near)) return { period: "prior_year" };
      return { period: "prior_year_quarter" };
    }
  }
  if (/\b(?:last fiscal year|prior fiscal year|for last year|in the prior year)\b/i.test(near))
    return { period: "prior_year" };
  // A change's base is not its period: "up 28% over the same period in 2020" is this quarter's growth.
  const nearOwn = kind === "change" ? withoutBase(near, context) : near;
  const beforeOwn = kind === "change" ? withoutBase(window.before, context) : window.before;
  if (
    FULL_YEAR_RESULT.test(beforeOwn) ||
    FULL_YEAR_RESULT.test(nearOwn) ||
    ((context.yearResults === true || namesTheYear(text, context)) &&
      !/\bquarter\b/i.test(text) &&
      !POINT_IN_TIME.has(metric))
  ) {
    if (!/\bquarter\b/i.test(near)) return { period: "full_year" };
  }
  return { period: "quarter" };
}

/** The comparison base a change is measured against ("the same period in 2020", "in 2020" before the call's year). */
function withoutBase(text: string, context: SentenceContext): string {
  return text
    .replace(
      /\b(?:same|prior[- ]year|year[- ]ago|comparable) (?:quarter|period)(?: (?:of|in|last) (?:fiscal )?(?:20\d\d|'\d\d|year))?/gi,
      " ",
    )
    .replace(/\b(?:in|for|of|over|versus|vs\.?) (?:fiscal )?(20\d\d)\b/gi, (all, year: string) =>
      context.fiscalYear != null && Number(year) < context.fiscalYear ? " " : all,
    );
}

const QUARTER_REF =
  /\b(?:(first|second|third|fourth|1st|2nd|3rd|4th)[- ](?:fiscal )?quarter|Q([1-4]))(?:\s+(?:of\s+)?(?:fiscal\s+)?(?:year\s+)?(20\d\d|'\d\d))?\b|\b(?:fiscal\s+)?(?:F?Y\s?)?(20\d\d|'\d\d)\s+(?:(first|second|third|fourth)\s+quarter|Q([1-4]))\b/i;
const YEAR_REF =
  /\b(?:in|for|during|of|versus|vs\.?|from|over|our|the|its|their|end of)\s+(?:fiscal\s+(?:year\s+)?)?(20\d\d|'\d\d)\b/i;
const fullYear = (y: string) => (y.startsWith("'") ? 2000 + Number(y.slice(1)) : Number(y));

/**
 * A quarter or year said next to the amount, read against the call's own fiscal quarter: on a third-quarter 2021
 * call, "second quarter" is the prior quarter and "third quarter of 2020" a year ago. Null when nothing is said or
 * the call's quarter is unknown.
 */
function datedPeriod(near: string, context: SentenceContext, last = false): FigurePeriod | null {
  const year = context.fiscalYear ?? null;
  const quarter = context.fiscalQuarter ?? null;
  if (year === null) return null;
  const q = last
    ? ([...near.matchAll(new RegExp(QUARTER_REF.source, "gi"))].at(-1) ?? null)
    : QUARTER_REF.exec(near);
  if (q) {
    const said = Number(QUARTER_ORDINALS[(q[1] ?? q[5] ?? "").toLowerCase()] ?? q[2] ?? q[6]);
    const y = q[3] ?? q[4];
    const saidYear = y ? fullYear(y) : year;
    if (saidYear === year && said === quarter) return "quarter";
    if (saidYear === year - 1 && said === quarter) return "prior_year_quarter";
    const index = saidYear * 4 + said;
    if (quarter !== null && index === year * 4 + quarter - 1) return "prior_quarter";
    if (quarter !== null && index < year * 4 + quarter) return "other";
    return null;
  }
  const yr = last
    ? ([...near.matchAll(new RegExp(YEAR_REF.source, "gi"))].at(-1) ?? null)
    : YEAR_REF.exec(near);
  if (yr) {
    const saidYear = fullYear(yr[1]!);
    if (saidYear === year - 1) return /\bquarter\b/i.test(near) ? "prior_year_quarter" : "prior_year";
    if (saidYear < year - 1) return "other";
  }
  return null;
}
