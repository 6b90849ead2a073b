/**
 * Figures against the earnings calendar (docs/insights.md, "Consensus"): a figure is compared only when it is what
 * the calendar row estimates — the company's own revenue or EPS (FFO per share for a calendar on an FFO basis), a
 * level stated as fact, of the quarter the row covers (guidance: of the next row's quarter), on the row's EPS basis.
 * When the spoken figure is the calendar's actual as rounded when spoken ("$4.2 billion" for 4,213,000,000), the
 * calendar's own surprise is shown, so the two screens agree; otherwise it is computed from what was said.
 */
import type { Consensus, ConsensusRecord, Figure } from "@/lib/schemas/insights";
import { isFact } from "./figures";

export function surprisePercent(actual: number, estimate: number): number | undefined {
  if (estimate === 0 || !Number.isFinite(estimate)) return undefined;
  return Math.round(((actual - estimate) / Math.abs(estimate)) * 100 * 1000) / 1000;
}

/** The spoken figure's precision: "$4.2 billion" stands for anything that rounds to 4.2 billion. */
function roundsTo(spoken: Figure, actual: number): boolean {
  const factor = { one: 1, thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 }[spoken.scale];
  const decimals = spoken.quote.match(/\.(\d+)/)?.[1]?.length ?? 0;
  const step = factor / 10 ** decimals;
  return Math.abs(actual - spoken.value) <= step / 2 + 1e-9 * Math.abs(actual);
}

type EpsBasis = "gaap" | "adjusted" | "ffo" | null;

/** The calendar's basis ("Adj", "GAAP", "FFO"), or null when it does not say. */
function calendarBasis(epsType: string | null): EpsBasis {
  if (epsType === null || epsType.trim() === "") return null;
  if (/ffo/i.test(epsType)) return "ffo";
  return /adj|non|oper|core/i.test(epsType) ? "adjusted" : "gaap";
}

/**
 * Is this per-share figure on the calendar's basis? A plain "EPS" (no basis said) is the reported, GAAP figure: it
 * meets a GAAP row, never an adjusted one. FFO per share meets an FFO row only as plain FFO (not "core" or
 * "adjusted" FFO, which are other measures). With no basis on the row, any EPS is compared.
 */
function onCalendarBasis(figure: Figure, basis: EpsBasis): boolean {
  if (basis === "ffo") return figure.metric === "ffo" && figure.basis === null;
  if (figure.metric !== "eps") return false;
  if (basis === null) return true;
  if (basis === "adjusted") return figure.basis === "adjusted";
  return figure.basis === "gaap" || figure.basis === null;
}

/** The figure is what the calendar row estimates: company-level, a level, in the row's unit. */
function comparable(figure: Figure, record: ConsensusRecord): "revenue" | "eps" | null {
  if (figure.kind !== "level" || figure.segment !== null || !isFact(figure)) return null;
  if (figure.metric === "revenue") return figure.unit === "usd" ? "revenue" : null;
  if (figure.unit !== "usd_per_share") return null;
  return onCalendarBasis(figure, calendarBasis(record.epsType)) ? "eps" : null;
}

function compare(
  figure: Figure,
  record: ConsensusRecord,
  what: "revenue" | "eps",
  useActual: boolean,
): Figure {
  const isEps = what === "eps";
  const estimate = isEps ? record.epsEst : record.revenueEst;
  if (estimate === null) return figure;
  const actual = isEps ? record.eps : record.revenue;
  const reported = isEps ? record.epsSurprisePercent : record.revenueSurprisePercent;
  const surprise =
    useActual && actual !== null && reported !== null && roundsTo(figure, actual)
      ? reported
      : surprisePercent(figure.value, estimate);
  return surprise === undefined
    ? { ...figure, consensus: estimate }
    : { ...figure, consensus: estimate, surprisePercent: surprise };
}

/**
 * The rule for holding a figure against the calendar (docs/insights.md, "Consensus"). A false surprise shown with
 * confidence costs more than a comparison not made, so a figure is compared only when its sentence reads as the
 * number an analyst would call "the reported number": the company's total of the metric for the calendar row's
 * quarter, stated plainly in the prepared remarks. Everything else stays a figure without a surprise.
 */

/** Any word naming a part of the company, an item, an impact or another measure than the reported total. */
const NOT_THE_TOTAL =
  /\b(?:segments?|business(?:es)?|divisions?|group|units?|subsidiar(?:y|ies)|regions?|regional|channels?|brands?|programs?|products?|services?|platforms?|portfolios?|franchises?|stores?|same[- ]store|comparable|comps?|organic(?:ally)?|constant[- ]currency|currency|pro[- ]forma|like[- ]for[- ]like|underlying|normalized|run[- ]rate|annualized|recurring|subscriptions?|licen[cs]es?|advertising|hardware|software|cloud|wholesale|retail|online|digital|e-?commerce|international|domestic|global|worldwide|U\.?S\.?|American?s?|North|South|Latin|Europe(?:an)?|EMEA|APAC|Asia(?:n)?|Pacific|China|Chinese|Japan|India|Canad(?:a|ian)|Mexic(?:o|an)|Brazil|U\.?K\.?|German(?:y)?|France|French|incremental|additional|synerg\w*|requests?|acquired|acquisitions?|divest\w*|price|pricing|items?|charges?|gains?|impacts?|benefits?|headwinds?|tailwinds?|contribut\w*|accret\w*|dilut(?:ion|ive)|one[- ]time|discrete|backlog|bookings|pipeline|dividends?|distributions?|buybacks?|repurchases?|book value|tangible|cash flow|per (?:customer|user|subscriber|unit|store|employee|member|account|visit|transaction)|mix|(?<!per )share of|percent of|% of|excluding|ex-|exclusive of|net of|including|includes?|included|midpoint|target\w*|goal|estimates?|consensus|expectations?)\b/i;

/** Another span than one quarter: the year's, the half's, year to date. */
const OTHER_SPAN =
  /\b(?:year[- ]to[- ]date|YTD|first half|second half|H[12]|(?:six|nine|twelve) months|full[- ]year|for the (?:fiscal )?year|fiscal year|annual(?:ly)?|this year|next year|last year's|calendar)\b/i;
/** A bound, not an amount: "more than $5 billion". */
const BOUND =
  /\b(?:more than|less than|over|under|nearly|almost|in excess of|north of|at least|up to|as much as|close to|just (?:under|over|below|above)|exceed(?:ed|ing|s)?|surpass(?:ed|ing)?|above|below)\s+(?:\$|\d)/i;

const ORDINALS = ["first", "second", "third", "fourth"] as const;

/** Each quarter the sentence names: 1–4 for "third quarter" or "Q3", 0 for "the quarter" / "this quarter". */
function quartersNamed(text: string): number[] {
  const named: number[] = [];
  for (const m of text.matchAll(/\b(first|second|third|fourth)[- ]quarter\b|\bQ([1-4])\b/gi))
    named.push(m[1] ? ORDINALS.indexOf(m[1].toLowerCase() as (typeof ORDINALS)[number]) + 1 : Number(m[2]));
  if (
    /\b(?:for|in|during|of) (?:the|this) quarter\b|\bthis quarter\b|\bquarterly\b|\bthree months ended\b/i.test(
      text,
    )
  )
    named.push(0);
  return named;
}

/** A quarter other than the one reported or guided: the comparison base is named in the sentence. */
const OTHER_QUARTER =
  /\b(?:prior|previous|last|preceding|sequential|year[- ]ago|same|comparable|coming|next|following) quarters?\b/i;
const NEXT_QUARTER = /\b(?:next|coming|upcoming) quarter\b/i;

/** The years the sentence names: 2021, fiscal '21, FY21. */
function yearsNamed(text: string): number[] {
  const years: number[] = [];
  for (const m of text.matchAll(/\b(?:19|20)(\d\d)\b|\bFY\s?'?(\d\d)\b|\bfiscal\s+'(\d\d)\b|'(\d\d)\b/gi))
    years.push(2000 + Number(m[1] ?? m[2] ?? m[3] ?? m[4]));
  return years;
}

/**
 * The metric, named as the company's total. Revenue: "revenue(s)", "net sales", "sales", each occurrence preceded
 * by nothing, a company-wide or reporting word ("total", "consolidated", "quarterly", "record", "GAAP", "reported",
 * "fourth quarter") or a verb or preposition — never by another noun ("Data centers revenue", "Latin America net
 * sales", "comparable sales"). EPS: "earnings per (diluted) share", "EPS", "per (diluted) share".
 */
const REVENUE_WORD = /\b(?:revenues?|net sales|sales)\b/gi;
const BEFORE_TOTAL =
  /^(?:|total|consolidated|fiscal|(?:19|20)\d\d|overall|company|companywide|enterprise[- ]wide|quarterly|quarter|quarter's|record|reported|GAAP|net|our|the|its|of|in|with|and|generated|delivered|reported|achieved|had|posted|grew|was|were|Q[1-4]|first|second|third|fourth|expect|expects|expected|anticipate|see|project|guide|guiding|forecast)$/i;
const EPS_WORD =
  /\b(?:(?:earnings|income|loss|EPS) per (?:diluted |basic |fully diluted )?(?:common )?share|EPS|per (?:diluted |basic |fully diluted )?(?:common )?share)\b/i;
const FFO_WORD = /\b(?:FFO|funds from operations)\b/i;
const OTHER_FFO = /\b(?:core|adjusted|normalized|AFFO|recurring)\b/i;
const ADJUSTED_WORD = /\b(?:adjusted|non-GAAP|core|operating|cash|excluding|pro forma)\b/i;
const GAAP_WORD = /(?<!non-)\bGAAP\b|\bas reported\b|\breported basis\b/i;
/** The words directly before "earnings per share" / "EPS" that name it. */
const EPS_MODIFIERS =
  /(?:\b(?:adjusted|non-GAAP|GAAP|core|operating|reported|diluted|fully|net|income|earnings|quarterly|record|first|second|third|fourth|quarter|Q[1-4]|our|the|total|and)[\s-]+)+$/i;
/** Adjusted earnings divided into the per-share figure: "adjusted net income came to $318 million, or $2.06 per share". */
const ADJUSTED_EARNINGS = /\b(?:adjusted|non-GAAP|core) (?:net )?(?:income|earnings)\b/i;
/** "On an adjusted basis, …" says the basis of the whole clause. */
const BASIS_CLAUSE = /\bon an? ((?:non-)?GAAP|adjusted|core|operating|reported) basis\b/i;
/** Net income is the GAAP measure unless the sentence adjusts it. */
const NET_INCOME = /\bnet (?:income|loss|earnings)\b/i;

function namesRevenueAsTotal(text: string): boolean {
  let named = false;
  for (const m of text.matchAll(REVENUE_WORD)) {
    const before = text.slice(0, m.index).trimEnd();
    if (/[,;:(]$/.test(before) || before === "") {
      named = true;
      continue;
    }
    const word = before.match(/([\w'’-]+)$/)?.[1]?.replace(/’/g, "'") ?? "";
    if (!BEFORE_TOTAL.test(word)) return false;
    named = true;
  }
  return named;
}

const SCALE: Record<string, number> = {
  thousand: 1e3,
  million: 1e6,
  billion: 1e9,
  trillion: 1e12,
  m: 1e6,
  mn: 1e6,
  b: 1e9,
  bn: 1e9,
};
const AMOUNT =
  /\$\s?(\d[\d,]*(?:\.\d+)?)(?:\s*(thousand|million|billion|trillion|mn?|bn?)\b)?|\b(\d+(?:\.\d+)?)\s*cents?\b/gi;

/** The sentence's dollar amounts in order, per-share ones ("$1.99", "12 cents") or totals ("$4.2 billion"). */
function amounts(text: string, perShare: boolean): { at: number; end: number; value: number }[] {
  const found: { at: number; end: number; value: number }[] = [];
  for (const m of text.matchAll(AMOUNT)) {
    const cents = m[3] !== undefined;
    const scale = SCALE[(m[2] ?? "").toLowerCase()];
    const value = cents ? Number(m[3]) / 100 : Number(m[1]!.replace(/,/g, "")) * (scale ?? 1);
    const isPerShare = cents || (scale === undefined && value < 1000);
    if (isPerShare === perShare) found.push({ at: m.index, end: m.index + m[0].length, value });
  }
  return found;
}

/** Words that make what follows them a comparison base: "compared with $1.75 a year ago", "up from $3.9 billion". */
const COMPARATIVE =
  /\b(?:compared|versus|vs\.?|from|up|down|against|relative|than|year[- ]ago|a year ago|last year|prior|previous|same)\b/i;
const RANGE_JOIN = /^\s*(?:to|and|-|–|through)\s*$/i;

export interface ComparisonSentence {
  text: string;
  /** The calendar row's quarter (1–4) and year, when known. */
  quarter: number | null;
  year: number | null;
  /** The row's EPS basis (its `epsType`). */
  epsType: string | null;
  guidance: boolean;
}

/**
 * Is the metric named as the company's total, on the row's basis? `head` is the sentence up to the comparison
 * ("… compared with adjusted EPS in the prior year" says nothing of this quarter's basis). EPS must say its basis:
 * adjusted words for an adjusted row; "GAAP", "as reported" or net income's per share for a GAAP row. A plain
 * "EPS was $1.20" could be either (many companies lead with the adjusted figure), and a row with no basis matches
 * nothing.
 */
function namesTheMetric(s: ComparisonSentence, what: "revenue" | "eps", head: string): boolean {
  if (what === "revenue") return namesRevenueAsTotal(s.text) && !ADJUSTED_WORD.test(s.text);
  const basis = calendarBasis(s.epsType);
  if (basis === null) return false;
  if (basis === "ffo") return FFO_WORD.test(head) && !OTHER_FFO.test(s.text);
  const eps = EPS_WORD.exec(head);
  if (!eps || FFO_WORD.test(s.text)) return false;
  // The basis word belongs to the EPS: in the words naming it ("adjusted diluted earnings per share"), in
  // "on an adjusted basis", or in the earnings it divides ("adjusted net income of $X, or $Y per share");
  // "adjusted EBITDA of $71 million and earnings per share of $0.19" is not adjusted EPS.
  const near = EPS_MODIFIERS.exec(head.slice(0, eps.index))?.[0] ?? "";
  const clause = BASIS_CLAUSE.exec(head)?.[1];
  const clauseGaap = clause !== undefined && (GAAP_WORD.test(clause) || /reported/i.test(clause));
  const adjusted =
    ADJUSTED_WORD.test(near) || (clause !== undefined && !clauseGaap) || ADJUSTED_EARNINGS.test(head);
  const gaap = GAAP_WORD.test(near) || clauseGaap || (!adjusted && NET_INCOME.test(head));
  if (adjusted === gaap) return false;
  return basis === "adjusted" ? adjusted : gaap;
}

/** Does the sentence name the row's quarter, and no other span? */
function namesTheQuarter(s: ComparisonSentence, lead: string): boolean {
  const { text } = s;
  if (OTHER_SPAN.test(text)) return false;
  const named = quartersNamed(text);
  if (named.some((q) => q !== 0 && q !== s.quarter)) return false;
  const years = yearsNamed(text);
  if (years.length > 0 && (s.year === null || years.some((y) => y !== s.year))) return false;
  if (s.guidance) {
    // Guidance: the next row's quarter by name, or "next quarter"; never "the quarter" alone (the one reported).
    if (OTHER_QUARTER.test(text) && !NEXT_QUARTER.test(text)) return false;
    return named.some((q) => q !== 0) || NEXT_QUARTER.test(text);
  }
  // Results: the quarter named before the amount is the subject; a base named after it is the comparison.
  if (OTHER_QUARTER.test(lead) || COMPARATIVE.test(lead)) return false;
  return named.length > 0;
}

/**
 * Does the sentence state the company's total revenue (or EPS on the row's basis) for the row's quarter, with
 * `value` as that amount? The amount is the sentence's first of its kind; any other is a comparison base after a
 * comparison word ("compared with $1.75 a year ago") or, for guidance, the other end of its range.
 */
export function statesReportedNumber(s: ComparisonSentence, what: "revenue" | "eps", value: number): boolean {
  const { text } = s;
  if (NOT_THE_TOTAL.test(text) || BOUND.test(text)) return false;
  const list = amounts(text, what === "eps");
  const first = list[0];
  if (!first || !namesTheQuarter(s, text.slice(0, first.at))) return false;
  const comparison = COMPARATIVE.exec(text.slice(first.end));
  const head = comparison ? text.slice(0, first.end + comparison.index) : text;
  if (!namesTheMetric(s, what, head)) return false;
  const near = (a: number) => Math.abs(Math.abs(value) - a) <= 0.005 * a + 1e-9;
  if (s.guidance) {
    if (list.length === 1) return near(first.value);
    return (
      list.length === 2 &&
      RANGE_JOIN.test(text.slice(first.end, list[1]!.at)) &&
      near((first.value + list[1]!.value) / 2)
    );
  }
  if (!near(first.value)) return false;
  return list.slice(1).every((a) => COMPARATIVE.test(text.slice(first.end, a.at)));
}

/**
 * Adds `consensus` and `surprisePercent` to the figures the calendar estimates, and to no other. A figure is
 * compared only when its sentence is known (`textOf`), is in the prepared remarks (before `qaStartSequence`), and
 * states the company's reported total for the row's quarter (statesReportedNumber); and only when it is the one
 * figure of that sentence that could be.
 */
export function compareWithConsensus(
  figures: readonly Figure[],
  consensus: Consensus | null,
  sentence?: {
    textOf: (sequence: number) => string | undefined;
    fiscalQuarter: number | null;
    fiscalYear?: number | null;
    qaStartSequence?: number | null;
  },
): Figure[] {
  if (!consensus || !sentence) return figures as Figure[];
  const rowQuarter = (r: ConsensusRecord, fallback: number | null) => {
    const q = r.period ? /^Q([1-4])$/i.exec(r.period.trim())?.[1] : undefined;
    return q ? Number(q) : fallback;
  };
  const fq = sentence.fiscalQuarter;
  const candidates = figures.map((f) => {
    const qa = sentence.qaStartSequence ?? null;
    if (qa !== null && f.sequence >= qa) return null;
    const text = sentence.textOf(f.sequence);
    if (text === undefined) return null;
    let record: ConsensusRecord | null = null;
    let quarter: number | null = null;
    let year: number | null = null;
    if (!f.isGuidance && f.period === "quarter" && consensus.current) {
      record = consensus.current;
      quarter = rowQuarter(record, fq);
      year = record.periodYear ?? sentence.fiscalYear ?? null;
    } else if (f.isGuidance && f.period === "next_quarter" && consensus.next) {
      record = consensus.next;
      quarter = rowQuarter(record, fq === null ? null : (fq % 4) + 1);
      year = record.periodYear ?? null;
    }
    if (!record) return null;
    const what = comparable(f, record);
    if (!what) return null;
    const ok = statesReportedNumber(
      { text, quarter, year, epsType: record.epsType, guidance: f.isGuidance },
      what,
      f.value,
    );
    return ok ? { record, what, key: `${f.sequence}|${what}` } : null;
  });
  const perSentence = new Map<string, number>();
  for (const c of candidates) if (c) perSentence.set(c.key, (perSentence.get(c.key) ?? 0) + 1);
  const out = figures.map((f, i) => {
    const c = candidates[i];
    if (!c || perSentence.get(c.key)! > 1) return f;
    return compare(f, c.record, c.what, !f.isGuidance);
  });
  // The same number said again in the prepared remarks ("Revenue reached $89 million" before "Revenue for the
  // fourth quarter was $89 million") is that reported number: it carries the same comparison, so the panel, which
  // shows a metric's first statement, shows the surprise.
  const qa = sentence.qaStartSequence ?? null;
  return out.map((f) => {
    if (f.consensus !== undefined || (qa !== null && f.sequence >= qa)) return f;
    const same = out.find(
      (x) =>
        x.consensus !== undefined &&
        x.metric === f.metric &&
        x.kind === f.kind &&
        x.unit === f.unit &&
        x.period === f.period &&
        x.isGuidance === f.isGuidance &&
        x.basis === f.basis &&
        x.value === f.value &&
        x.low === f.low &&
        x.high === f.high,
    );
    return same && f.segment === null && isFact(f)
      ? {
          ...f,
          consensus: same.consensus,
          ...(same.surprisePercent === undefined ? {} : { surprisePercent: same.surprisePercent }),
        }
      : f;
  });
}
