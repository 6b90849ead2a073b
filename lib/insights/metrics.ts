/**
 * The metric vocabulary (docs/insights.md, "Metric vocabulary"): the words that name each metric in earnings-call
 * English, and the units its level and its change can take. Where phrases overlap the longest phrase at a position
 * wins ("free cash flow" over "cash", "comparable store sales" over "sales", "EBITDA margin" over "EBITDA").
 */
import type { FigureMetric } from "@/lib/schemas/insights";

// Types only: a value from lib/schemas/insights.ts would bring zod into the first load of /live and the call room.
export type { FigureMetric } from "@/lib/schemas/insights";
import { METRICS } from "./metric-specs";

export { METRIC_LABELS, METRICS } from "./metric-specs";

/** Expense ratios: "SG&A was 22% of sales", "opex as a percentage of revenue" (a level in percent of revenue). */
const RATIO_OF_REVENUE: ReadonlySet<FigureMetric> = new Set([
  "sga",
  "operating_expenses",
  "capex",
  "gross_profit",
  "ebitda",
  "operating_income",
  "net_income",
  "free_cash_flow",
]);

export const isRatioMetric = (m: FigureMetric) => METRICS[m].isRatio === true;
export const isPerShareMetric = (m: FigureMetric) => m === "eps" || m === "dividend" || m === "ffo";
export const canBeRatioOfRevenue = (m: FigureMetric) => RATIO_OF_REVENUE.has(m);

interface MetricWord {
  metric: FigureMetric | null;
  re: RegExp;
}

/**
 * `metric: null` marks a blocker: a noun that owns the amount next to it but is none of our metrics ("headcount of
 * 1,200", "a $0.03 headwind", "a $500 million facility"), so the amount is not given to a metric named earlier.
 */
const WORDS: MetricWord[] = [
  {
    metric: "eps",
    re: /\b(?:(?:diluted|basic)\s+)?(?:earnings|income|loss|EPS|NFE|profit)\s+(?:per|a)\s+(?:diluted\s+|basic\s+|common\s+)?share\b/gi,
  },
  { metric: "eps", re: /\bEPS\b/g },
  { metric: "eps", re: /\bper[- ](?:diluted )?share (?:earnings|results|net income)\b/gi },
  {
    metric: "ffo",
    re: /\b(?:core |normalized |adjusted |A)?FFO(?: per (?:diluted )?share)?\b|\bfunds from operations\b/g,
  },
  {
    metric: "comparable_sales",
    re: /\b(?:comparable|comp|same[- ](?:store|restaurant|shop|center)|like[- ]for[- ]like|identical[- ]store)(?:[- ](?:store|restaurant|shop|brand|net))?[- ]sales\b|\bcomps\b|\bSSS\b/gi,
  },
  { metric: "gross_margin", re: /\bgross (?:profit )?margins?(?: rate)?\b|\bGP rate\b/gi },
  {
    metric: "operating_margin",
    re: /\b(?:operating|EBIT|segment|operating profit|segment profit) margins?\b/gi,
  },
  { metric: "net_margin", re: /\bnet (?:profit |income )?margins?\b/gi },
  { metric: "ebitda_margin", re: /\bEBITDA(?:R)? margins?\b/g },
  { metric: "net_interest_margin", re: /\bnet interest margins?\b|\bNIM\b/g },
  { metric: "net_interest_income", re: /\bnet interest income\b|\bNII\b/g },
  { metric: "gross_profit", re: /\bgross profit\b/gi },
  {
    metric: "operating_income",
    re: /\b(?:operating (?:income|profit|earnings|loss)|income from operations|segment (?:profit|income|operating income|earnings)|EBIT)\b/gi,
  },
  {
    metric: "net_income",
    re: /\bnet (?:income|earnings|profit|loss)\b|\b(?:adjusted |core |GAAP |reported |total )?earnings\b(?! (?:per|call|release|report|season|conference|before|guidance|growth framework|power|date))/gi,
  },
  { metric: "ebitda", re: /\bEBITDA(?:R|X)?\b/g },
  { metric: "free_cash_flow", re: /\bfree cash flows?\b|\bFCF\b/gi },
  {
    metric: "operating_cash_flow",
    re: /\b(?:operating cash flows?|cash flows? (?:from|provided by) operati(?:ons|ng activities)|(?:net )?cash (?:generated|provided|from) (?:by |from )?operati(?:ons|ng activities)|operati(?:ons|ng activities) (?:provided|generated)|(?<=\boperati(?:ons|ng activities) (?:provided|generated) (?:[^.;]|\.(?=\d)){0,40}?\b(?:of|in) )cash(?: flows?)?)\b/gi,
  },
  {
    metric: null,
    re: /\bcash (?:taxes|paid|used|costs?|proceeds|consideration|payments?|interest|compensation|charges?|flows?|outflows?|generation|conversion|returns?|on cash)\b|\bin cash (?:for|to)\b/gi,
  },
  {
    metric: "cash",
    re: /\bcash(?:,? (?:cash )?equivalents)?(?:,? and (?:cash equivalents|(?:short-term |marketable )?(?:investments|securities)))?(?: balances?| on hand| position)?\b/gi,
  },
  { metric: "liquidity", re: /\b(?:total |available )?liquidity(?: position)?\b/gi },
  { metric: "debt", re: /\b(?:total |net |long-term |short-term )?debt\b(?![- ](?:to|service))/gi },
  { metric: "capex", re: /\b(?:capital expenditures?|capex|capital spending|capital investments?)\b/gi },
  { metric: "dividend", re: /\b(?:quarterly |annual |regular |cash )?dividends?(?: per share)?\b/gi },
  {
    metric: "buyback",
    re: /\b(?:share |stock )?(?:repurchases?|repurchased|buybacks?|bought back)\b|\brepurchased (?:\w+ ){0,2}(?:shares|stock)\b/gi,
  },
  { metric: "tax_rate", re: /\b(?:effective |adjusted |GAAP |non-GAAP )?(?:income )?tax rate\b|\bETR\b/gi },
  { metric: "backlog", re: /\bbacklogs?\b|\bremaining performance obligations?\b|\bRPO\b/gi },
  {
    metric: "bookings",
    re: /\b(?:bookings|order intake|(?:net|new|total|incoming) orders|orders (?=(?:were|grew|increased|rose|declined|decreased|fell|of|up|down)\b))\b/gi,
  },
  {
    metric: "subscribers",
    re: /\b(?:subscribers|subscriptions|members|customers|users|accounts|households|connections)\b/gi,
  },
  { metric: "arr", re: /\b(?:total )?ARR\b|\bannual(?:ized)? recurring revenues?\b/g },
  {
    metric: "operating_expenses",
    re: /\b(?:total |adjusted |non-GAAP )?operating (?:expenses?|costs)(?: ratio)?\b|\bopex\b|\b(?:SG&A|G&A) and R&D (?:expenses|costs)\b/gi,
  },
  {
    metric: "sga",
    re: /\b(?:SG&A|selling, general,? and administrative|G&A|general and administrative)(?: expenses?| costs?| expense)?\b/gi,
  },
  { metric: "interest_expense", re: /\b(?:net )?interest expense\b|\b(?:cash paid for|paid) interest\b/gi },
  { metric: "inventory", re: /\binventor(?:y|ies)\b(?! (?:turns?|days))/gi },
  {
    metric: "volume",
    re: /\b(?:(?:unit|sales|shipment|organic|retail sales) )?volumes?\b|\b(?:unit )?shipments\b|\bvolume(?:\/| and )mix\b/gi,
  },
  {
    metric: "price",
    re: /\b(?:pric(?:e|ing)(?:\/| and )mix|pricing|price realization|average selling prices?|ASPs?)\b/gi,
  },
  { metric: "noi", re: /\b(?:same[- ](?:store|property|center) |cash )?NOI\b|\bnet operating income\b/g },
  {
    metric: "occupancy",
    re: /\b(?:average |ending |portfolio |same[- ]store )?occupancy(?: rate)?\b|\bleased\b/gi,
  },
  {
    metric: "loans",
    re: /\b(?:total |average |gross |net )?loans(?: and leases)?\b|\bloan (?:balances|portfolio)\b/gi,
  },
  { metric: "deposits", re: /\b(?:total |average )?deposits\b/gi },
  {
    metric: "aum",
    re: /\bassets under (?:management|administration)\b|\bAU[MA]\b|\bfee-(?:bearing|earning) (?:capital|AUM)\b|\bclient assets\b/g,
  },
  { metric: "revenue", re: /\b(?:revenues?|(?:net |total )?sales|top[- ]line|turnover)\b/gi },
  { metric: "revenue", re: /\b(?:organic|core|local[- ]currency|constant[- ]currency) growth\b/gi },
  // "$1.6 billion in availability under its credit facilities": borrowing room, neither cash nor debt.
  {
    metric: null,
    re: /\b(?:availability|revolver|revolving credit(?: facility)?|credit (?:facility|facilities|line))\b/gi,
  },
  { metric: null, re: /\b(?:FFO|debt|net debt)[- ]to[- ](?:debt|EBITDA|EBITDAR|capital|cap|equity)\b/gi },
  {
    metric: null,
    re: /\b(?:(?:share |stock )?(?:repurchase|buyback) (?:plans?|programs?|authorizations?)|(?:income )?tax (?:expense|benefit|provision)|pre-?tax (?:earnings|income))\b/gi,
  },
  {
    metric: null,
    re: /\b(?:shares? outstanding|share count|shares|headcount|employees|stores|locations|restaurants|deferred revenue|price increases?|share price|stock price|purchase price|average price|fx|foreign exchange|currency|dilution|accretion|headwinds?|tailwinds?|impacts?|benefits?|contributions?|effects?|drag|investments?|acquisitions?|proceeds|consideration|working capital|charges?|impairments?|write-?downs?|restructuring|gains?|(?:one-?time|transformation|transition|exit|integration|severance|transaction) costs?|costs?|savings|expenses|amortization|depreciation|adjustments?|facility|facilities|notes|bonds|offering|project|program|pipeline|authorization|coupon|cap rates?|interest rates?|exchange rates?|coupon rates?|TAM|market|opportunit(?:y|ies)|payout ratio|leverage|ratio|capacity|square feet|production|reserves?|provisions?|abatements?|run rate|returns?|ROIC|ROE|yield|loss on|losses on|extinguishment|hedges?|spread|premiums?|taxes|base|size|maturity|terms?|penetration|mix|book value|comprehensive income|pre-?tax income|income before (?:income )?taxes)\b/gi,
  },
];

export interface MetricHit {
  metric: FigureMetric | null;
  start: number;
  end: number;
  text: string;
}

/**
 * A metric word used as a modifier of another noun names no amount ("revenue initiatives", "sales force", "sales of
 * mortgage-backed securities" are not revenue): such a hit blocks instead.
 */
const MODIFIER_OF =
  /^\s+(?:initiatives?|synergies|synergy|recognition|force|forces|teams?|tax(?:es)?|opportunit(?:y|ies)|cycles?|calls?|releases?|streams?|models?|goals?|targets?|people|reps?|representatives|organization|channels?|process|productivity|per\b|mix|penetration|base|run[- ]rate|multiple|visibility|trends?|momentum|pipeline|funnel|per store|per unit|per square)\b/i;
const SALES_OF_ASSETS =
  /^\s+of\s+(?!\$|\d|approximately|about|roughly|nearly|over|more than|just|a record|record|around|almost)[a-z]/i;

/** Every metric word of `text`, longest first at overlapping positions, in order of position. */
export function findMetricWords(text: string): MetricHit[] {
  const hits: MetricHit[] = [];
  for (const w of WORDS) {
    for (const m of text.matchAll(w.re)) {
      let metric = w.metric;
      const rest = text.slice(m.index + m[0].length);
      if (metric !== null && MODIFIER_OF.test(rest)) metric = null;
      if (metric === "revenue" && /sales$/i.test(m[0]) && SALES_OF_ASSETS.test(rest)) metric = null;
      hits.push({ metric, start: m.index, end: m.index + m[0].length, text: m[0] });
    }
  }
  hits.sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start));
  const kept: MetricHit[] = [];
  for (const h of hits) {
    const last = kept[kept.length - 1];
    if (last && h.start < last.end) continue;
    kept.push(h);
  }
  return kept;
}
