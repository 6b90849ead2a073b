/**
 * The words that name a metric in earnings-call English, and the units each metric can take. Order matters where
 * phrases overlap: the longest phrase at a position wins ("free cash flow" over "cash", "operating margin" over
 * "operating").
 */
import type { FigureMetric, FigureUnit } from "@/lib/schemas/insights";

export { FIGURE_METRICS, type FigureMetric } from "@/lib/schemas/insights";

export const METRIC_LABELS: Record<FigureMetric, string> = {
  revenue: "Revenue",
  segment_revenue: "Segment revenue",
  eps: "EPS",
  gross_margin: "Gross margin",
  operating_margin: "Operating margin",
  net_margin: "Net margin",
  operating_income: "Operating income",
  net_income: "Net income",
  ebitda: "EBITDA",
  free_cash_flow: "Free cash flow",
  operating_cash_flow: "Operating cash flow",
  cash: "Cash",
  capex: "Capex",
  dividend: "Dividend",
  buyback: "Buybacks",
  operating_expenses: "Operating expenses",
};

interface MetricWord {
  metric: FigureMetric | null;
  re: RegExp;
}

/**
 * `metric: null` marks a blocker: a noun that owns the amount next to it but is none of our metrics ("tax rate of
 * 18%", "backlog of $2 billion"), so the amount is not attributed to a metric named earlier in the sentence.
 */
const WORDS: MetricWord[] = [
  { metric: "eps", re: /\b(?:earnings|income|loss) per (?:diluted |basic )?share\b/gi },
  { metric: "eps", re: /\bEPS\b/g },
  { metric: "eps", re: /\bper[- ](?:diluted )?share (?:earnings|results)\b/gi },
  { metric: "gross_margin", re: /\bgross (?:profit )?margins?\b/gi },
  { metric: "operating_margin", re: /\b(?:operating|EBIT) margins?\b/gi },
  { metric: "net_margin", re: /\bnet (?:profit |income )?margins?\b/gi },
  { metric: "operating_income", re: /\b(?:operating (?:income|profit)|income from operations)\b/gi },
  { metric: "net_income", re: /\bnet (?:income|earnings|profit|loss)\b/gi },
  { metric: "ebitda", re: /\bEBITDA\b/g },
  { metric: "free_cash_flow", re: /\bfree cash flows?\b/gi },
  {
    metric: "operating_cash_flow",
    re: /\b(?:operating cash flows?|cash flows? from operations|cash (?:generated|provided) (?:by|from) operati(?:ons|ng activities))\b/gi,
  },
  {
    metric: "cash",
    re: /\bcash(?:,? (?:cash )?equivalents)?(?:,? and (?:cash equivalents|(?:short-term |marketable )?(?:investments|securities)))?(?: balance| on hand| position)?\b/gi,
  },
  { metric: "capex", re: /\b(?:capital expenditures?|capex|capital spending)\b/gi },
  { metric: "dividend", re: /\b(?:quarterly )?dividends?\b/gi },
  { metric: "buyback", re: /\b(?:share )?(?:repurchases?|repurchased|buybacks?|bought back)\b/gi },
  { metric: "operating_expenses", re: /\b(?:operating expenses|opex)\b/gi },
  { metric: "revenue", re: /\b(?:revenues?|(?:net )?sales|top[- ]line)\b/gi },
  {
    metric: null,
    re: /\b(?:tax rate|shares? outstanding|share count|headcount|employees|customers|stores|backlog|bookings|inventor(?:y|ies)|debt|leverage|interest (?:expense|rate)|yield|market share|churn|retention|utilization|occupancy|payout ratio|cost savings|savings|charges?|impairment|restructuring|gross profit|orders|pipeline|deferred revenue|remaining performance obligations|price increases?|pricing|fx|currency|dilution|headwinds?|tailwinds?|investment|acquisition|purchase price|working capital)\b/gi,
  },
];

export interface MetricHit {
  metric: FigureMetric | null;
  start: number;
  end: number;
  text: string;
}

/** Every metric word of `text`, longest first at overlapping positions, in order of position. */
export function findMetricWords(text: string): MetricHit[] {
  const hits: MetricHit[] = [];
  for (const w of WORDS) {
    for (const m of text.matchAll(w.re)) {
      hits.push({ metric: w.metric, start: m.index, end: m.index + m[0].length, text: m[0] });
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

/** Units a metric's level takes; a change ("up 12%", "up 40 basis points") is checked separately. */
export const LEVEL_UNITS: Record<FigureMetric, readonly FigureUnit[]> = {
  revenue: ["usd"],
  segment_revenue: ["usd"],
  eps: ["usd_per_share", "usd"],
  gross_margin: ["percent"],
  operating_margin: ["percent"],
  net_margin: ["percent"],
  operating_income: ["usd"],
  net_income: ["usd"],
  ebitda: ["usd"],
  free_cash_flow: ["usd"],
  operating_cash_flow: ["usd"],
  cash: ["usd"],
  capex: ["usd"],
  dividend: ["usd_per_share", "usd"],
  buyback: ["usd"],
  operating_expenses: ["usd"],
};

export const isMarginMetric = (m: FigureMetric) =>
  m === "gross_margin" || m === "operating_margin" || m === "net_margin";

export const isPerShareMetric = (m: FigureMetric) => m === "eps" || m === "dividend";
