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
import type {
  Figure,
  FigureBasis,
  FigureKind,
  FigureMetric,
  FigurePeriod,
  FigureUnit,
} from "@/lib/schemas/insights";
import { backwardSpans, forwardCues, horizonOf, PRIOR_GUIDANCE, type Horizon } from "./guidance";
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

/** At or above: shown as fact. Below: shown greyed as unverified. Calibrated on real calls (docs/insights.md). */
export const FIGURE_CONFIDENCE_THRESHOLD = 0.7;

export interface SentenceInput {
  sequence: number;
  text: string;
  startMs: number;
}

/** What the sentences before this one set up (the engine keeps it per speaker). */
export interface SentenceContext {
  /** The horizon of an outlook opened earlier ("For fiscal 2022, we expect …"), for guidance that does not say. */
  horizon?: Horizon | null;
  /** A segment the speaker opened ("Turning to our Industrial segment."): company-level readings are doubtful. */
  segment?: string | null;
  /** The call's own fiscal year and quarter (1–4), so "first quarter 2020" on a 2021 call is a year ago. */
  fiscalYear?: number | null;
  fiscalQuarter?: number | null;
  /**
   * The speaker is going through an outlook ("For 2021, we expect revenue of … . Net income of $47 million to $57
   * million and EPS of …"): amounts in a sentence that states no result are guidance too.
   */
  outlook?: boolean;
  /** The speaker is going through the year's results ("Looking at the year as a whole, …"), not the quarter's. */
  yearResults?: boolean;
  /** Sentences since the segment was last named. */
  segmentAge?: number;
  /** Words of the company's own name, lower-case ("idacorp"): "IDACORP's revenue" is the company's, not a part's. */
  company?: readonly string[];
}

/** A sentence that reports what happened, not what is expected. */
export const PAST_RESULT =
  /\b(?:was|were|grew|rose|fell|came in|had|saw|did|paid|made|took|spent|sold|bought|built|brought|got|won|led|left|kept|[a-z]{3,}ed|(?:this|the) quarter|(?:first|second|third|fourth) quarter(?! of (?:20\d\d|fiscal))|year[- ]to[- ]date)\b/i;

// --- Kind and sign ------------------------------------------------------------------------------------------------

/** A verb or noun that makes the amount after it a movement, not a level ("up 12%", "an increase of 40 bps"). */
const CHANGE_BEFORE =
  /\b(?:up|down|grew|grow|growing|growth(?: of)?|increased?|increasing|decreased?|decreasing|declined?|declining|rose|rise|rising|fell|fall|falling|expanded|expanding|expansion(?: of)?|contracted|contraction(?: of)?|compressed|compression(?: of)?|improved|improving|improvement(?: of)?|higher|lower|ahead|gain(?:ed)?|jumped|dropped|climbed|reduced|reduction(?: of)?|cut|deteriorat(?:ed|ion)(?: of)?|accelerated|decelerated|outpaced|more|less|paid down|repaid|paid off)\b(?:\s+(?:by|of|roughly|about|approximately|nearly|almost|more than|over|some|an additional|a(?: strong| solid| robust| healthy| record)?|another|just|only|slightly|well|significantly))*\s*$/i;
const NEGATIVE_CHANGE =
  /\b(?:down|decreased?|decreasing|declined?|declining|decline|fell|fall|falling|contracted|contraction|compressed|compression|lower|dropped|reduced|reduction|cut|deteriorat(?:ed|ion)|less|repaid)\b/i;
/** A movement named right before the metric: "increasing earnings $27.5 million", "reduced debt by $33 million". */
const PRE_CHANGE =
  /\b(increas(?:e|ed|ing)(?: to)?|decreas(?:e|ed|ing)|declin(?:e|ed|ing)|grow(?:th|ing)?|grew|improv(?:ement|ed|ing)|reduc(?:tion|ed|ing)|rais(?:ed|ing)|lower(?:ed|ing)|cut|boost(?:ed|ing)|expan(?:ded|ding|sion)|paid down|repaid)\s+(?:(?:in|of)\s+)?(?:(?:our|the|its|total|consolidated|net|adjusted|overall|quarterly|first|second|third|fourth|quarter|first-quarter|second-quarter|third-quarter|fourth-quarter)\s+){0,3}$/i;
const PRE_CHANGE_NEGATIVE = /^(?:decreas|declin|reduc|lower|cut|paid down|repaid)/i;
/** The movement said after the amount: "12% year over year", "a 4% decline", "25% lower than last year". */
const CHANGE_AFTER =
  /^\s*(?:(?:year[- ]over[- ]year|year[- ]on[- ]year|sequentially|yoy|over (?:the )?(?:prior|last) year|versus (?:the )?(?:prior|last) year)\b|(?:growth|increase|decline|decrease|improvement|expansion|contraction|compression|reduction|rise|drop|jump|gain|higher|lower|more|less|better|worse|above|below|ahead|compound(?:ed)? (?:annual|average)|CAGR|annual(?:ized)? growth)\b)/i;
const NEGATIVE_AFTER =
  /^\s*(?:decline|decrease|reduction|contraction|compression|drop|lower|less|worse|below)\b/i;
/** "grew to $4.2 billion": the amount after "to" is where it landed, a level. */
const LANDING =
  /\b(?:to|at)(?:\s+(?:a|an|the|record|new|all-time|high|of|approximately|about|roughly|just|over|under|nearly|more than|a record))*\s*$/i;
/** "…, or 25% lower than …": the alternative form of the same amount, skipped to read what is said of both. */
const ALTERNATIVE =
  /^\s*,?\s*or\s+(?:negative\s+|minus\s+)?\$?\s?[\d.,]+\s*(?:%|percent|basis points?|bps|(?:thousand|million|billion)\b)?\s*/i;
/** A level said as a loss or an outflow ("a net loss of $12 million", "an outflow of $293.7 million"). */
const NEGATIVE_LEVEL = /\b(?:loss(?:es)?|outflow|negative|deficit|burn(?:ed)?|used)\b[^$\d]{0,30}$/i;

// --- Periods ------------------------------------------------------------------------------------------------------

const COMPARATOR_BEFORE =
  /\b(?:compared? (?:with|to)|compares (?:with|to)|comparing to|versus|vs\.?|from|against|relative to|on top of|improved from|up from|down from)\s*(?:the\s+|a\s+|an\s+|our\s+)?(?:(?:adjusted|GAAP|non-GAAP|reported|net|total|prior[- ]year|last year's|year-ago)\s+)*(?:(?:net |adjusted |seasonal |operating |GAAP |non-GAAP |reported )?(?:loss|outflow) of\s+)?(?:loss per (?:diluted )?share of\s+)?(?:(?:just|approximately|about|roughly|nearly|almost|over|under|more than|less than)\s+)*$/i;
/** "… from pro forma Q3 2019 sales of $386 million": a comparison reads through the words before the metric. */
const COMPARATOR_THROUGH =
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

// --- Guidance -----------------------------------------------------------------------------------------------------

/** "…, excluding the inventory charge,", "(…)": asides whose nouns do not own the amount after them. */
const ASIDES = [
  /,\s*(?:excluding|including|net of|before|after|which includes?)\b[^,]*,/g,
  /\([^)]*\)/g,
  // "net sales in Q3 excluding wire and cable sales were …": the excluded part's metric word owns nothing.
  /\b(?:excluding|including|net of|ex-)\s+(?:[\w&'-]+\s+){0,5}?(?:sales|revenues?)\b/gi,
];
/** "plus or minus 50 basis points": a tolerance around the figure before it, not a figure. */
const TOLERANCE = /\bplus or minus\s*$/i;
const RESTATED_AWAY = /\b(?:not|rather than|instead of|(?:and )?not the)\s*$/i;
/** A figure the speaker said the company would reach, restated as context: "within our guidance range of …". */
const PAST_GUIDANCE =
  /\b(?:guidance|outlook|guided|expectations?|forecast(?:ed)?|targets?)\b(?:\s+(?:range\s+)?(?:of|range of|range|midpoint of|for))?\s*$/i;

// --- Attribution --------------------------------------------------------------------------------------------------

/** Words between an amount and the metric it names ("$17.3 million of adjusted EBITDA", "an 11.7% operating margin"). */
const FORWARD_GAP =
  /^\s*(?:(?:more|less|higher|lower)\s+)?(?:(?:of|in)\s+)?(?:(?:an?|the|our|total|quarterly|annual|net|GAAP|non-GAAP|adjusted|organic|reported|consolidated|comparable|core|record|strong|solid|healthy|robust|year-over-year|year-on-year|sequential|diluted|pre-tax|pretax|after-tax|incremental|additional|positive|negative|free|cash|constant[- ]currency)\s+){0,4}$/i;
/** "a 6.9% increase in retail sales volumes": the movement of the metric named after it. */
const CHANGE_OF_FORWARD =
  /^\s*(?:increase|decrease|decline|growth|improvement|reduction|rise|drop|gain|expansion|contraction)s?\s+(?:in|of)\s+(?:(?:our|the|total|retail|net|adjusted|organic)\s+){0,2}$/i;
/** After the metric an amount named: a growth noun makes it a change ("6% same-store sales growth"). */
const FORWARD_CHANGE =
  /^\s*(?:growth|increase|improvement|expansion|gain|rise|decline|decrease|reduction|contraction|compression|drop|rate of growth)\b/i;
/** "$0.03 of EPS headwind": an effect on the metric, not the metric. */
const EFFECT_AFTER =
  /^\s*(?:headwinds?|tailwinds?|impacts?|benefits?|dilution|accretion|charges?|contributions?|drag|effects?|savings|costs?|penetration|mix|base|to debt)\b/i;
/** Verbs that make the amount after them the size of an effect: "contributed $0.55", "cost us $22 million". */
const CONTRIBUTION_BEFORE =
  /\b(?:contribut(?:ed|ing|es)|accounted for|includ(?:ed|es|ing)|which included|added|adding|to add|will add|cost(?:ing)? us|hurt|helped|benefit(?:t)?ed|offset|impacted|affected|weighed on \w+)\s+(?:(?:a net|a|an|approximately|about|roughly|another|an additional|nearly|almost|over|more than|some)\s+)*$/i;
/** A cause acting on a metric, "… reduced operating income by $X": the amount is an impact, not the metric. */
const IMPACT_VERB =
  /\b(?:impact(?:ed|ing|s)?|increased|decreased|affect(?:ed|ing|s)?|benefit(?:t)?(?:ed|ing|s)?|hurt(?:ing|s)?|help(?:ed|ing|s)?|contribut(?:ed|ing|es)|add(?:ed|ing|s)|reduc(?:ed|ing|es)|lower(?:ed|ing|s)|rais(?:ed|ing|es)|boost(?:ed|ing|s)|drove|driv(?:ing|es)|offset(?:ting|s)?|pressur(?:ed|ing|es)|weigh(?:ed|ing|s) on|cost(?:ing|s)?)\b/gi;
const WE_BEFORE =
  /\b(?:we|we've|we have|we've also|we also|we also have|we further|we were able to|we were able to further)\s*$/i;
/** "30% of revenue", "96% of our customers": a share of a whole, not a level or a movement of a metric. */
const SHARE_OF =
  /^\s*of\s+(?!(?:the\s+)?(?:last|prior|previous|a year|year|fiscal|20\d\d|this|next)\b)(?:(?:our|the|total|net|all|its|their|consolidated)\s+)*([\w-]+)/i;
const REVENUE_NOUN = /^(?:revenues?|sales|net)$/i;
/** "SG&A as a percentage of net sales increased 340 basis points": a ratio of the metric to revenue. */
const AS_PERCENT_OF = /\bas a (?:percent(?:age)?|%) of (?:net |total )?(?:revenues?|sales)\b/i;

interface Attribution {
  hit: MetricHit;
  how: "direct" | "forward" | "inherited";
}

function asideRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  for (const re of ASIDES) for (const m of text.matchAll(re)) ranges.push([m.index, m.index + m[0].length]);
  return ranges;
}

/** Where the clause holding position `at` starts: after the last `;`, ". ", " while " or ", but " before it. */
function clauseStartOf(text: string, at: number): number {
  const before = text.slice(0, at);
  let cut = -1;
  for (const sep of ["; ", ". ", " while ", ", but ", ", whereas ", ", and we ", ": "]) {
    const i = before.lastIndexOf(sep);
    if (i >= 0) cut = Math.max(cut, i + sep.length);
  }
  return Math.max(0, cut);
}

/** Nouns that own an amount said right before them ("$500 million facility", "$2 million in savings"). */
const FORWARD_OWNER =
  /^(?:capacity|facility|facilities|projects?|programs?|notes|bonds|offering|authorization|acquisitions?|investments?|proceeds|consideration|charges?|impairments?|gains?|costs?|savings|reserves?|provisions?|TAM|market|opportunit(?:y|ies)|pipeline|headwinds?|tailwinds?|impacts?|benefits?|contributions?|dilution|accretion|premiums?|abatements?|adjustments?|taxes|coupon|base|size)$/i;
/** The amount is owned by a noun that is none of our metrics: nothing is stated, nothing is guessed. */
const BLOCKED = "blocked" as const;

function attribute(
  text: string,
  mention: Mention,
  prevEnd: number,
  hits: MetricHit[],
  asides: [number, number][],
): Attribution | typeof BLOCKED | null {
  // The metric named right after the amount owns it: "$1.1 billion in free cash flow", "a 40% EBITDA increase",
  // "a 6.9% increase in retail sales volumes"; a noun that is none of ours there ("$14 million in additional
  // borrowing capacity") owns it too, and then nothing is stated.
  for (const h of hits) {
    if (h.start < mention.end) continue;
    const between = text.slice(mention.end, h.start);
    if (FORWARD_GAP.test(between) || CHANGE_OF_FORWARD.test(between)) {
      // "$500 million of our shares": the shares are what a repurchase bought, named before.
      if (h.metric === null && /^(?:shares|stock)$/i.test(h.text)) break;
      if (h.metric === null || EFFECT_AFTER.test(text.slice(h.end))) return BLOCKED;
      return { hit: h, how: "forward" };
    }
    // "$14 million in additional borrowing capacity", "$1.35 billion on the acquisition": owned by that noun.
    if (
      h.metric === null &&
      FORWARD_OWNER.test(h.text) &&
      /^\s*(?:of|in)\s+(?:[\w-]+\s+){0,3}$/i.test(between)
    )
      return BLOCKED;
    if (
      h.metric === null &&
      /^(?:acquisitions?|projects?|purchase|deals?|transactions?|facility)$/i.test(h.text) &&
      /^\s*(?:on|for|to)\s+(?:the\s+|an?\s+|our\s+|this\s+)?(?:[\w-]+\s+)?$/i.test(between)
    )
      return BLOCKED;
    break;
  }
  let nearest: MetricHit | undefined;
  let buyback: MetricHit | undefined;
  for (const h of hits) {
    if (h.end > mention.start) break;
    if (h.metric === "buyback") buyback = h;
    if (asides.some(([s, e]) => h.start >= s && h.end <= e)) continue;
    // "SG&A as a percentage of net sales increased 340 bps": the revenue there is the ratio's base, not its owner.
    if (
      h.metric === "revenue" &&
      /\b(?:as a )?(?:percent(?:age)?|%) of (?:(?:net|total)\s+)?$/i.test(
        text.slice(Math.max(0, h.start - 30), h.start),
      )
    )
      continue;
    nearest = h;
  }
  if (!nearest) return null;
  // "We bought back 4 million shares for $380 million": the shares bought are what the buyback cost.
  if (nearest.metric === null && buyback && /^(?:shares|stock)$/i.test(nearest.text)) nearest = buyback;
  if (nearest.metric === null) return BLOCKED;
  // "grew 28% to $3.4 billion": the landing amount belongs to the metric as directly as the movement did.
  if (nearest.start >= prevEnd || LANDING.test(text.slice(prevEnd, mention.start)))
    return { hit: nearest, how: "direct" };
  return { hit: nearest, how: "inherited" };
}

/** "we purchased $80 million of our stock": a repurchase named by what was bought. */
const STOCK_BOUGHT = /^\s*(?:of|in)\s+(?:our\s+|its\s+|[A-Z]{2,5}\s+)?(?:common\s+)?(?:stock|shares)\b/;
const BUYING = /\b(?:repurchas\w*|bought|purchased|buy(?:ing)? back)\b/i;
/** "Personal Care grew 6%", "Parts and supply is up 19%": a part of the company and its growth, no metric said. */
const PART_GREW =
  /^(?:(?:[Nn]ow|[Aa]nd|[Ss]o|[Aa]lso|[Tt]hen|[Nn]ext)\s+)*(?:(?:[Ww]ithin|[Ii]n|[Oo]f) (?:that|this|which|those|these),?\s+)?(?:(?:[Tt]he|[Oo]ur|[A-Z][\w]*'s)\s+)?((?:[A-Z][\w&'./-]*)(?:\s+(?:[A-Z][\w&'./-]*|and|&|of|in|[a-z][\w-]*)){0,4}?)(?:\s+(?:segment|business|division|region))?\s+(?:(?:also|again|then)\s+)?(?:grew|increased|rose|declined|decreased|fell|(?:was|were|is|are) (?:up|down))\s+(?:by\s+)?(?:(?:approximately|about|roughly|nearly|almost|over|more than)\s+)?$/;
const GREW_NOT =
  /^(?:We|I|It|They|This|That|These|Those|There|Our|The|Volume|Volumes|Pricing|Price|Prices|Traffic|Demand|Headcount|Inventory|Spending|Costs?|Expenses?|Growth|Business|Everything|Each|All|Both)\b/;

/**
 * An amount no metric word owns can still be a figure: a per-share amount of earnings or guidance ("we reaffirm
 * guidance of $2.25 to $2.45 per share"), shares bought back, or a named part of the company that grew.
 */
function unnamed(text: string, mention: Mention, clauseStart: number): Attribution | null {
  const at = (metric: FigureMetric, how: Attribution["how"]): Attribution => ({
    hit: { metric, start: mention.start, end: mention.start, text: "" },
    how,
  });
  const clause = text.slice(clauseStart, mention.start);
  if (mention.unit === "usd_per_share") {
    if (/\b(?:earn(?:ed|ing|ings)?|guidance|outlook|expect\w*|results?|profit)\b/i.test(clause))
      return at("eps", "direct");
    return null;
  }
  if (mention.unit === "usd" && STOCK_BOUGHT.test(text.slice(mention.end)) && BUYING.test(clause))
    return at("buyback", "direct");
  if (mention.unit === "percent") {
    const grew = PART_GREW.exec(clause.trimStart());
    if (grew && !GREW_NOT.test(grew[1]!)) return at("revenue", "inherited");
  }
  return null;
}

/** The amount is the size of an effect on a metric, not the metric: "reduced revenue by $20 million". */
function isImpact(text: string, mention: Mention, hit: MetricHit | null, clauseStart: number): boolean {
  const before = text.slice(clauseStart, mention.start);
  if (CONTRIBUTION_BEFORE.test(before)) return true;
  // "The Renco acquisition contributed revenue of $5.9 million": a part's contribution, named before the metric.
  if (
    hit &&
    /\b(?:contribut(?:ed|ing|es)|added)\s+(?:(?:\w+)\s+){0,2}$/i.test(
      text.slice(Math.max(clauseStart, hit.start - 30), hit.start),
    ) &&
    /^\s*(?:of|was|were)?\s*$/i.test(text.slice(hit.end, mention.start))
  )
    return true;
  if (
    !hit ||
    !/\bby\s+(?:(?:approximately|about|roughly|nearly|almost|over|more than|another|an additional)\s+)?$/i.test(
      text.slice(hit.end, mention.start),
    )
  )
    return false;
  // A verb acting on the metric before it ("… reduced operating income by"), unless the company itself did it
  // ("we reduced debt by $33 million" is debt going down).
  const lead = text.slice(clauseStart, hit.start);
  let verb: RegExpExecArray | null = null;
  for (const m of lead.matchAll(IMPACT_VERB)) verb = m;
  if (!verb) return false;
  // The verb must act on this metric ("… increased earnings by"), not on another one before it.
  if (
    !/^\s*(?:(?:our|the|its|their|total|consolidated|net|adjusted|gross|operating|quarterly|first|second|third|fourth|quarter)\s+){0,3}$/i.test(
      lead.slice(verb.index + verb[0].length),
    )
  )
    return false;
  const subject = lead.slice(0, verb.index);
  // "our objective of reducing net debt by …", "we expect to reduce …": a plan of the company, not an effect.
  if (/\b(?:of|to|toward|towards|on|for|by)\s+$/i.test(subject)) return false;
  return !WE_BEFORE.test(subject);
}

/**
 * "GAAP and adjusted diluted EPS of $0.53 and $0.52, respectively": the bases in the order of the amounts. Returns
 * the bases by position among the amounts after them, or null when the sentence has no such list.
 */
function respectiveBases(
  text: string,
  mentions: readonly Mention[],
): { at: number; bases: FigureBasis[] } | null {
  const m =
    /\b(GAAP|adjusted|non-GAAP|reported)\s+and\s+(GAAP|adjusted|non-GAAP|reported)\b[^.;]*\brespectively\b/i.exec(
      text,
    );
  if (!m) return null;
  const basis = (w: string): FigureBasis => (/^(?:GAAP|reported)$/i.test(w) ? "gaap" : "adjusted");
  const first = mentions.findIndex((x) => x.start > m.index);
  return first < 0 ? null : { at: first, bases: [basis(m[1]!), basis(m[2]!)] };
}

function lastIndex(text: string, re: RegExp): number {
  const g = new RegExp(re.source, re.flags.includes("g") ? re.flags : `${re.flags}g`);
  let at = -1;
  for (const m of text.matchAll(g)) at = m.index;
  return at;
}

const ADJUSTED =
  /\b(?:non-?GAAP|adjusted|excluding(?! (?:currency|foreign exchange|FX)\b)|ex-items|core|pro forma|underlying|normalized|operating EPS|net operating earnings|NFE|comparable(?! (?:store |restaurant |shop )?sales)|organic(?:ally)?|cash EPS|as adjusted)\b/i;
const GAAP = /(?<![-\w])GAAP\b|\breported\b|\bas reported\b/;

function basisOf(text: string, upTo: number): FigureBasis | null {
  const before = text.slice(0, upTo);
  const adj = lastIndex(before, ADJUSTED);
  const gaap = lastIndex(before, GAAP);
  if (adj < 0 && gaap < 0) {
    const rest = text.slice(upTo, upTo + 60);
    if (ADJUSTED.test(rest)) return "adjusted";
    if (GAAP.test(rest)) return "gaap";
    return null;
  }
  return adj > gaap ? "adjusted" : "gaap";
}

interface PeriodReading {
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

function periodOf(
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
    (context.yearResults === true && !/\bquarter\b/i.test(text) && !POINT_IN_TIME.has(metric))
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

const ORDINALS: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  "1st": 1,
  "2nd": 2,
  "3rd": 3,
  "4th": 4,
};
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
    const said = Number(ORDINALS[(q[1] ?? q[5] ?? "").toLowerCase()] ?? q[2] ?? q[6]);
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
  for (const [i, mention] of mentions.entries()) {
    const gap = text.slice(prevEnd, mention.start);
    const thisPrevEnd = prevEnd;
    prevEnd = mention.end;
    if (RESTATED_AWAY.test(gap) || TOLERANCE.test(gap)) continue;
    // "customers with more than $1 million in ARR": a threshold, not a figure.
    if (/\bwith (?:more than|over|at least|greater than|in excess of)\s*$/i.test(gap)) continue;
    const clauseStart = clauseStartOf(text, mention.start);
    const attributed = attribute(text, mention, thisPrevEnd, hits, asides);
    if (attributed === BLOCKED) continue;
    // "… reduced revenue by $20 million and EBITDA by $2 million": the list goes on with the same effect.
    const impact: boolean =
      isImpact(text, mention, attributed?.hit ?? null, clauseStart) ||
      (lastWasImpact && /^\s*,?\s*(?:and\s+[\w&\s-]{1,30}?\s+by|or)\s*$/i.test(gap));
    lastWasImpact = impact;
    if (impact) continue;
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
    if (share || shareAgain) {
      if (!share || !REVENUE_NOUN.test(share[1]!) || !canBeRatioOfRevenue(metric)) {
        lastWasShare = true;
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
    // "an increase of $2.1 million or $0.08 per diluted share": the alternative form of the amount before it.
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
    // "… a net loss of $18.5 million or $0.61 per share for the same period": the alternative form of the amount
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
    // "Latin America net sales were up 11% with 8% organic sales growth": the sentence's segment carries over to
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
    // "sales of approximately $925 million in the Commercial segment": the part named after the amount.
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
    // "Abaco has $325 million in annual sales, and we deployed $1.35 billion …": a metric from another clause.
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
        : lossMetric || NEGATIVE_LEVEL.test(gap);
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

export const isFact = (f: Pick<Figure, "confidence">) => f.confidence >= FIGURE_CONFIDENCE_THRESHOLD;
