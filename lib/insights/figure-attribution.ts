/**
 * Which metric an amount is of: the metric word that owns it (before or right after it), an amount no metric word
 * owns that is still a figure (a per-share amount of earnings, shares bought back, a named part that grew), and the
 * amounts that are no figure of the company (an impact on a metric, a share of a whole, a noun of ours none owns).
 */
import type { FigureMetric } from "@/lib/schemas/insights";
import { LANDING } from "./figure-kind";
import type { Mention } from "./mentions";
import type { MetricHit } from "./metrics";

/** "…, excluding the inventory charge,", "(…)": asides whose nouns do not own the amount after them. */
const ASIDES = [
  /,\s*(?:excluding|including|net of|before|after|which includes?)\b[^,]*,/g,
  /\([^)]*\)/g,
  // "Travel costs, which move with revenue, were up 6%": a relative clause's nouns own nothing outside it.
  /,\s*(?:which|that|who)\s+(?:is|are|was|were|has|have|had|remain|remains|move|moves|tend|tends)\b[^,]*,/g,
  // "net sales in Q2 excluding pipe and fitting sales were …": the excluded part's metric word owns nothing.
  /\b(?:excluding|including|net of|ex-)\s+(?:[\w&'-]+\s+){0,5}?(?:sales|revenues?)\b/gi,
];

/** Words between an amount and the metric it names ("$17.3 million of adjusted EBITDA", "an 11.7% operating margin"). */
const FORWARD_GAP =
  /^\s*(?:(?:more|less|higher|lower)\s+)?(?:(?:of|in)\s+)?(?:(?:an?|the|our|total|quarterly|annual|net|GAAP|non-GAAP|adjusted|organic|reported|consolidated|comparable|core|record|strong|solid|healthy|robust|year-over-year|year-on-year|sequential|diluted|pre-tax|pretax|after-tax|incremental|additional|positive|negative|free|cash|constant[- ]currency)\s+){0,4}$/i;
/** "a 6.9% increase in retail sales volumes": the movement of the metric named after it. */
export const CHANGE_OF_FORWARD =
  /^\s*(?:increase|decrease|decline|growth|improvement|reduction|rise|drop|gain|expansion|contraction)s?\s+(?:in|of)\s+(?:(?:our|the|total|retail|net|adjusted|organic)\s+){0,2}$/i;
/** After the metric an amount named: a growth noun makes it a change ("6% same-store sales growth"). */
export const FORWARD_CHANGE =
  /^\s*(?:growth|increase|improvement|expansion|gain|rise|decline|decrease|reduction|contraction|compression|drop|rate of growth)\b/i;
/** "$0.03 of EPS headwind": an effect on the metric, not the metric. */
const EFFECT_AFTER =
  /^\s*(?:headwinds?|tailwinds?|impacts?|benefits?|dilution|accretion|charges?|contributions?|drag|effects?|savings|costs?|penetration|mix|base|to debt)\b/i;
/** Verbs that make the amount after them the size of an effect: "contributed $0.55", "cost us $22 million". */
const CONTRIBUTION_BEFORE =
  /\b(?:contribut(?:ed|ing|es)|accounted for|includ(?:ed|es|ing)|which included|added|adding|to add|will add|cost(?:ing)? us|hurt|helped|benefit(?:t)?ed|offset|impacted|affected|weighed on \w+)\s+(?:(?:a net|a|an|approximately|about|roughly|another|an additional|nearly|almost|over|more than|some)\s+)*$/i;
/** A cause acting on a metric, "… reduced operating income by $X": the amount is an impact, not the metric. */
const IMPACT_VERB =
  /\b(?:impact(?:ed|ing|s)?|increased|decreased|increase|decrease|reduce|lower|raise|boost|add|help|hurt|benefit|drive|offset|affect(?:ed|ing|s)?|benefit(?:t)?(?:ed|ing|s)?|hurt(?:ing|s)?|help(?:ed|ing|s)?|contribut(?:ed|ing|es)|add(?:ed|ing|s)|reduc(?:ed|ing|es)|lower(?:ed|ing|s)|rais(?:ed|ing|es)|boost(?:ed|ing|s)|drove|driv(?:ing|es)|offset(?:ting|s)?|pressur(?:ed|ing|es)|weigh(?:ed|ing|s) on|cost(?:ing|s)?)\b/gi;
const WE_BEFORE =
  /\b(?:we|we've|we have|we've also|we also|we also have|we further|we were able to|we were able to further)\s*$/i;
/** "30% of revenue", "96% of our customers": a share of a whole, not a level or a movement of a metric. */
export const SHARE_OF =
  /^\s*of\s+(?!(?:the\s+)?(?:last|prior|previous|a year|year|fiscal|20\d\d|this|next)\b)(?:(?:our|the|total|net|all|its|their|consolidated)\s+)*([\w-]+)/i;
export const REVENUE_NOUN = /^(?:revenues?|sales|net)$/i;
/** "SG&A as a percentage of net sales rose 120 basis points": a ratio of the metric to revenue. */
export const AS_PERCENT_OF = /\bas a (?:percent(?:age)?|%) of (?:net |total )?(?:revenues?|sales)\b/i;

export interface Attribution {
  hit: MetricHit;
  how: "direct" | "forward" | "inherited";
}

export function asideRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  for (const re of ASIDES) for (const m of text.matchAll(re)) ranges.push([m.index, m.index + m[0].length]);
  return ranges;
}

/** Where the clause holding position `at` starts: after the last `;`, ". ", " while " or ", but " before it. */
export function clauseStartOf(text: string, at: number): number {
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
  /^(?:capacity|facility|facilities|projects?|programs?|notes|bonds|offering|authorization|acquisitions?|investments?|proceeds|consideration|charges?|impairments?|gains?|costs?|savings|reserves?|provisions?|TAM|market|opportunit(?:y|ies)|pipeline|headwinds?|tailwinds?|impacts?|benefits?|contributions?|dilution|accretion|premiums?|abatements?|adjustments?|taxes|coupon|base|size|availability|revolver|refunds?|grants?|pool)$/i;
/** The amount is owned by a noun that is none of our metrics: nothing is stated, nothing is guessed. */
export const BLOCKED = "blocked" as const;

export function attribute(
  text: string,
  mention: Mention,
  prevEnd: number,
  hits: MetricHit[],
  asides: [number, number][],
): Attribution | typeof BLOCKED | null {
  // The metric named right after the amount owns it: "$2.3 billion in free cash flow", "a 40% EBITDA increase",
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
    // "SG&A as a percentage of net sales rose 120 bps": the revenue there is the ratio's base, not its owner.
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
export const PART_GREW =
  /^(?:(?:[Nn]ow|[Aa]nd|[Ss]o|[Aa]lso|[Tt]hen|[Nn]ext)\s+)*(?:(?:[Ww]ithin|[Ii]n|[Oo]f) (?:that|this|which|those|these),?\s+)?(?:(?:[Tt]he|[Oo]ur|[A-Z][\w]*'s)\s+)?((?:[A-Z][\w&'./-]*)(?:\s+(?:[A-Z][\w&'./-]*|and|&|of|in|[a-z][\w-]*)){0,4}?)(?:\s+(?:segment|business|division|region))?\s+(?:(?:also|again|then)\s+)?(?:grew|increased|rose|declined|decreased|fell|(?:was|were|is|are) (?:up|down))\s+(?:by\s+)?(?:(?:approximately|about|roughly|nearly|almost|over|more than)\s+)?$/;
const GREW_NOT =
  /^(?:We|I|It|They|This|That|These|Those|There|Our|The|Volume|Volumes|Pricing|Price|Prices|Traffic|Demand|Headcount|Inventory|Spending|Costs?|Expenses?|Growth|Business|Everything|Each|All|Both)\b/;
/** "Wholesale transactions grew 11%": a count that grew is no part's revenue. */
const COUNTED =
  /\b(?:transactions?|units|shipments|orders|visits|visitors|users|accounts|customers|members|subscribers|loans|deliveries|traffic|headcount|sign[- ]?ups|downloads|tons|barrels|bookings|applications)$/i;

/**
 * An amount no metric word owns can still be a figure: a per-share amount of earnings or guidance ("we reaffirm
 * guidance of $2.25 to $2.45 per share"), shares bought back, or a named part of the company that grew.
 */
export function unnamed(text: string, mention: Mention, clauseStart: number): Attribution | null {
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
    if (grew && !GREW_NOT.test(grew[1]!) && !COUNTED.test(grew[1]!)) return at("revenue", "inherited");
  }
  return null;
}

/** The amount is the size of an effect on a metric, not the metric: "reduced revenue by $20 million". */
export function isImpact(
  text: string,
  mention: Mention,
  hit: MetricHit | null,
  clauseStart: number,
): boolean {
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
