import { formatFigure, type FigureKind } from "./format";

/**
 * What every ratio means, how to show it, and which direction is better, in one place. Definitions follow the
 * market-data service's published description (docs/upstream.md); ratios it does not define (ROE, debt/equity, …) get
 * the textbook definition.
 *
 * Units: the service returns margins, yields and returns as fractions (0.41 = 41%) and the growth figures it calls
 * "percent" already in percent (12.3 = +12.3%); `kind` encodes which, so formatting never guesses.
 * `higherIsBetter`: true / false for a comparison's best/worst highlight; null where "better" depends on context
 * (beta, payout ratio, days payable…), and those are never highlighted.
 */
export interface RatioDefinition {
  label: string;
  short?: string;
  definition: string;
  kind: FigureKind;
  higherIsBetter: boolean | null;
}

const r = (
  label: string,
  definition: string,
  kind: FigureKind,
  higherIsBetter: boolean | null,
  short?: string,
): RatioDefinition => ({ label, definition, kind, higherIsBetter, short });

export const VALUATION_RATIOS: Record<string, RatioDefinition> = {
  peRatio: r(
    "P/E",
    "Price / diluted EPS (1 / earning yield). Not shown when earnings are negative.",
    "multiple",
    false,
  ),
  forwardPeRatio: r(
    "Forward P/E",
    "1 / forward earning yield: price over next-year estimated EPS. Not shown when negative.",
    "multiple",
    false,
  ),
  normalizedPeRatio: r(
    "Normalized P/E",
    "Price to earnings with the volatility of earnings normalized.",
    "multiple",
    false,
  ),
  ratioPe5YearAverage: r(
    "P/E 5-yr avg",
    "Five-year average of the price-to-earnings ratio.",
    "multiple",
    null,
  ),
  pegRatio: r("PEG", "Forward P/E / long-term average earning growth rate.", "number", false),
  pegPayback: r(
    "PEG payback",
    "Years for cumulative earnings to equal the current price at the PEG growth rate.",
    "number",
    false,
  ),
  psRatio: r("P/S", "Price / sales per share (1 / sales yield). Not shown when negative.", "multiple", false),
  pbRatio: r(
    "P/B",
    "Price / book value per share (1 / book value yield). Not shown when negative.",
    "multiple",
    false,
  ),
  pcfRatio: r(
    "P/CF",
    "Price / operating cash flow per share (1 / cash-flow yield). Not shown when negative.",
    "multiple",
    false,
  ),
  fcfRatio: r(
    "P/FCF",
    "Price / free cash flow per share (1 / FCF yield). Not shown when negative.",
    "multiple",
    false,
  ),
  evToEbitda: r("EV/EBITDA", "Enterprise value / EBITDA.", "multiple", false),
  pricetoEbitda: r("Price/EBITDA", "Price / EBITDA per share.", "multiple", false),
  earningYield: r("Earnings yield", "Diluted EPS / price.", "fraction", true),
  forwardEarningYield: r(
    "Fwd earnings yield",
    "Next-year estimated EPS / price (third-party estimate).",
    "fraction",
    true,
  ),
  salesYield: r("Sales yield", "Sales per share / price.", "fraction", true),
  bookValueYield: r("Book value yield", "Book value per share / price.", "fraction", true),
  cfYield: r("Cash-flow yield", "Operating cash flow per share / price.", "fraction", true),
  fcfYield: r("FCF yield", "Free cash flow per share / price.", "fraction", true),
  cashReturn: r("Cash return", "Free cash flow / enterprise value.", "fraction", true),
  dividendYield: r("Dividend yield", "Trailing-12-month dividends per share / price.", "fraction", true),
  trailingDividendYield: r(
    "Trailing div. yield",
    "Dividends paid over the last 12 months / price (the trailing counterpart of the forward yield).",
    "fraction",
    true,
  ),
  forwardDividendYield: r(
    "Forward div. yield",
    "(Current dividend per share × payout frequency) / price.",
    "fraction",
    true,
  ),
  forwardDividend: r(
    "Forward dividend",
    "Estimated yearly dividend as a percentage of the current price.",
    "fraction",
    true,
  ),
  buyBackYield: r(
    "Buyback yield",
    "Share buyback ratio: net shares repurchased relative to shares outstanding.",
    "fraction",
    true,
  ),
  totalYield: r("Total yield", "Dividend yield plus net buyback percentage.", "fraction", true),
  payoutRatio: r("Payout ratio", "Dividend per share / diluted EPS.", "fraction", null),
  sustainableGrowthRate: r("Sustainable growth", "ROE × (1 − payout ratio).", "fraction", true),
  salesPerShare: r("Sales / share", "Sales / average diluted shares outstanding.", "eps", true),
  bookValuePerShare: r("Book value / share", "Common equity / diluted shares outstanding.", "eps", true),
  tangibleBookValuePerShare: r("Tangible BV / share", "Book value less intangibles, per share.", "eps", true),
  tangibleBvPerShare3YrAvg: r(
    "Tangible BV / share 3-yr",
    "3-year average of tangible book value per share.",
    "eps",
    true,
  ),
  tangibleBvPerShare5YrAvg: r(
    "Tangible BV / share 5-yr",
    "5-year average of tangible book value per share.",
    "eps",
    true,
  ),
  cfoPerShare: r("CFO / share", "Operating cash flow / average diluted shares.", "eps", true),
  fcfPerShare: r("FCF / share", "Free cash flow / average diluted shares.", "eps", true),
  workingCapitalPerShare: r(
    "Working capital / share",
    "(Current assets − current liabilities) / shares.",
    "eps",
    null,
  ),
  workingCapitalPerShare3YrAvg: r(
    "Working cap. / share 3-yr",
    "3-year average of working capital per share.",
    "eps",
    null,
  ),
  workingCapitalPerShare5YrAvg: r(
    "Working cap. / share 5-yr",
    "5-year average of working capital per share.",
    "eps",
    null,
  ),
  priceChange1M: r("Price change 1M", "Price change over one month.", "fraction", true),
};

export const OPERATION_RATIOS: Record<string, RatioDefinition> = {
  grossMargin: r("Gross margin", "(Revenue − cost of goods sold) / revenue.", "fraction", true),
  operationMargin: r("Operating margin", "Operating income / revenue.", "fraction", true),
  ebitMargin: r("EBIT margin", "EBIT / revenue.", "fraction", true),
  ebitdaMargin: r("EBITDA margin", "EBITDA / revenue.", "fraction", true),
  pretaxMargin: r("Pretax margin", "Pretax income / revenue.", "fraction", true),
  netMargin: r("Net margin", "Net income / revenue.", "fraction", true),
  normalizedNetProfitMargin: r(
    "Normalized net margin",
    "Normalized income / total revenue.",
    "fraction",
    true,
  ),
  fcfSalesRatio: r("FCF / sales", "Free cash flow / revenue.", "fraction", true),
  fcfNetIncomeRatio: r("FCF / net income", "Free cash flow / net income.", "number", true),
  capExSalesRatio: r("CapEx / sales", "Capital expenditure / revenue.", "fraction", null),
  assetsTurnover: r("Asset turnover", "Revenue / average total assets.", "number", true),
  fixAssetTurnover: r("Fixed-asset turnover", "Revenue / average PP&E.", "number", true),
  inventoryTurnover: r("Inventory turnover", "Cost of goods sold / average inventory.", "number", true),
  receivableTurnover: r("Receivable turnover", "Revenue / average accounts receivable.", "number", true),
  payableTurnover: r("Payable turnover", "Cost of goods sold / average accounts payable.", "number", null),
  daysInInventory: r("Days inventory", "365 / inventory turnover.", "days", false),
  daysInSales: r("Days sales", "365 / receivable turnover.", "days", false),
  daysInPayment: r("Days payable", "365 / payable turnover.", "days", null),
  cashConversionCycle: r(
    "Cash conversion cycle",
    "Days in inventory + days in sales − days in payment.",
    "days",
    false,
  ),
  interestCoverage: r(
    "Interest coverage",
    "Ability to pay interest on outstanding debt: EBIT / interest expense.",
    "multiple",
    true,
  ),
  quickRatio: r("Quick ratio", "(Current assets − inventories) / current liabilities.", "number", true),
  currentRatio: r("Current ratio", "Current assets / current liabilities.", "number", true),
  roa: r("ROA", "Return on assets: net income / average total assets.", "fraction", true),
  roe: r("ROE", "Return on equity: net income / average shareholders' equity.", "fraction", true),
  roic: r(
    "ROIC",
    "Return on invested capital: after-tax operating income / (debt + equity).",
    "fraction",
    true,
  ),
  debtToAssets: r("Debt / assets", "Total debt / total assets.", "fraction", false),
  debtToEquity: r("Debt / equity", "Total debt / shareholders' equity.", "number", false),
  longTermDebtEquityRatio: r("LT debt / equity", "Long-term debt / shareholders' equity.", "number", false),
  totalDebtEquityRatio: r("Total debt / equity", "Total debt / shareholders' equity.", "number", false),
  financialLeverage: r(
    "Financial leverage",
    "Average total assets / average shareholders' equity.",
    "number",
    null,
  ),
  salesGrowth: r("Sales growth", "Growth of revenue over the prior-year period, percent.", "percent", true),
  netIncomeGrowth: r("Net income growth", "Growth of net income, percent.", "percent", true),
  netIncomeContOpsGrowth: r(
    "Net income growth (cont. ops)",
    "Growth of net income from continuing operations, percent.",
    "percent",
    true,
  ),
  operationIncomeGrowth: r(
    "Operating income growth",
    "Growth of operating income, percent.",
    "percent",
    true,
  ),
  operationRevenueGrowth3MonthAvg: r(
    "Revenue growth (3M avg)",
    "Growth of operating revenue, percent.",
    "percent",
    true,
  ),
};

export const EARNING_RATIOS: Record<string, RatioDefinition> = {
  dilutedEpsGrowth: r("Diluted EPS growth", "Annualized growth of diluted EPS, percent.", "percent", true),
  dilutedConstEpsGrowth: r(
    "Diluted EPS growth (cont. ops)",
    "Growth of diluted EPS from continuing operations, percent.",
    "percent",
    true,
  ),
  dpsGrowth: r("Dividend / share growth", "Growth of dividends per share, percent.", "percent", true),
  equityPerShareGrowth: r(
    "Book value / share growth",
    "Growth of book value per share, percent.",
    "percent",
    true,
  ),
};

export const EARNING_REPORT_FIELDS: Record<string, RatioDefinition> = {
  dilutedEps: r(
    "Diluted EPS",
    "Diluted EPS; derived when not reported for the fourth quarter; at most basic EPS.",
    "eps",
    true,
  ),
  basicEps: r("Basic EPS", "Net income to common shareholders / weighted average basic shares.", "eps", true),
  basicContinuousOperations: r("Basic EPS (cont. ops)", "Basic EPS from continuing operations.", "eps", true),
  dilutedContinuousOperations: r(
    "Diluted EPS (cont. ops)",
    "Diluted EPS from continuing operations.",
    "eps",
    true,
  ),
  continuingAndDiscontinuedBasicEps: r(
    "Basic EPS (incl. disc.)",
    "Basic EPS from continuing plus discontinued operations.",
    "eps",
    true,
  ),
  continuingAndDiscontinuedDilutedEps: r(
    "Diluted EPS (incl. disc.)",
    "Diluted EPS from continuing plus discontinued operations.",
    "eps",
    true,
  ),
  dividendPerShare: r("Dividend / share", "Total dividend payment / shares outstanding.", "eps", null),
  basicAverageShares: r("Basic avg. shares", "Weighted average shares used for basic EPS.", "integer", null),
  dilutedAverageShares: r(
    "Diluted avg. shares",
    "Weighted average diluted shares; equals basic shares when not presented.",
    "integer",
    null,
  ),
};

export const ALPHA_BETA_FIELDS: Record<string, RatioDefinition> = {
  alpha: r("Alpha", "Return in excess of what beta to the market predicts, over the window.", "number", true),
  beta: r(
    "Beta",
    "Sensitivity of the share's returns to the market's (1 = moves with the market).",
    "number",
    null,
  ),
  nonDivAlpha: r("Alpha (price only)", "Alpha computed on price returns, without dividends.", "number", true),
  nonDivBeta: r("Beta (price only)", "Beta computed on price returns, without dividends.", "number", null),
};

export const ALL_RATIO_DEFINITIONS: Record<string, RatioDefinition> = {
  ...VALUATION_RATIOS,
  ...OPERATION_RATIOS,
  ...EARNING_RATIOS,
  ...EARNING_REPORT_FIELDS,
  ...ALPHA_BETA_FIELDS,
};

/** A definition for any key, falling back to a readable label from the camelCase name. */
export function ratioDefinition(key: string): RatioDefinition {
  return (
    ALL_RATIO_DEFINITIONS[key] ?? {
      label: humanizeKey(key),
      definition: "Reported by the market-data service; no definition is published for it.",
      kind: "number",
      higherIsBetter: null,
    }
  );
}

/** "totalCurrentAssets" → "Total current assets"; "ebitda" stays recognisable as "EBITDA". */
export function humanizeKey(key: string): string {
  const acronyms: Record<string, string> = {
    ebitda: "EBITDA",
    ebit: "EBIT",
    eps: "EPS",
    fcf: "FCF",
    ppe: "PP&E",
    roe: "ROE",
    roa: "ROA",
    roic: "ROIC",
    ev: "EV",
    cfo: "CFO",
    dps: "DPS",
    bv: "BV",
    pe: "P/E",
    peg: "PEG",
    ttm: "TTM",
  };
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/_/g, " ")
    .toLowerCase()
    .split(" ")
    .filter(Boolean)
    .map((w) => acronyms[w] ?? w);
  const sentence = words.join(" ");
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

/**
 * A valuation multiple (price or value over earnings, EBITDA, sales, book, cash flow) of zero or less is not
 * meaningful: the company has no earnings (or EBITDA, …) to price. It reads "n/m" and takes no part in best/worst,
 * where the lowest positive multiple is the cheapest, so −35× would otherwise win "best".
 */
export function isNotMeaningful(
  value: number | null | undefined,
  def: Pick<RatioDefinition, "kind" | "higherIsBetter">,
) {
  return def.kind === "multiple" && def.higherIsBetter === false && typeof value === "number" && value <= 0;
}

/**
 * The best and worst companies for a ratio, by its direction. Every company tied at the best value is best alike
 * (and at the worst, worst alike); nulls and not-meaningful values take no part; fewer than two comparable values,
 * all values equal, or a ratio without a better direction mark nothing.
 */
export function bestAndWorst(
  values: readonly (number | null | undefined)[],
  def: Pick<RatioDefinition, "kind" | "higherIsBetter">,
): { best: number[]; worst: number[]; notMeaningful: number[] } {
  const notMeaningful = values.flatMap((v, i) => (isNotMeaningful(v, def) ? [i] : []));
  const none = { best: [], worst: [], notMeaningful };
  if (def.higherIsBetter === null) return none;
  const present = values
    .map((v, i) => [v, i] as const)
    .filter(
      (e): e is readonly [number, number] =>
        typeof e[0] === "number" && Number.isFinite(e[0]) && !isNotMeaningful(e[0], def),
    );
  if (present.length < 2) return none;
  // Values equal as shown are equal: 0.0% and 0.004% both read "0.0%", so neither may be worse than the other.
  const shown = (v: number) => formatFigure(v, def.kind);
  const sorted = present.map(([v]) => v).sort((a, b) => (def.higherIsBetter ? b - a : a - b));
  const top = shown(sorted[0]!);
  const bottom = shown(sorted[sorted.length - 1]!);
  if (top === bottom) return none;
  return {
    best: present.filter(([v]) => shown(v) === top).map(([, i]) => i),
    worst: present.filter(([v]) => shown(v) === bottom).map(([, i]) => i),
    notMeaningful,
  };
}

/**
 * Ratios as an analyst reads them: valuation first (the multiples everyone quotes, P/E and EV/EBITDA, at the top),
 * then shareholder returns, per-share figures, profitability, growth, leverage and liquidity, efficiency. The
 * service lists them in its own order, which put the payout ratio first and P/E ninth.
 */
export const RATIO_GROUPS: readonly { id: string; label: string; keys: readonly string[] }[] = [
  {
    id: "valuation",
    label: "Valuation",
    keys: [
      "peRatio",
      "forwardPeRatio",
      "evToEbitda",
      "pricetoEbitda",
      "psRatio",
      "pbRatio",
      "pcfRatio",
      "fcfRatio",
      "pegRatio",
      "normalizedPeRatio",
      "ratioPe5YearAverage",
      "earningYield",
      "forwardEarningYield",
      "fcfYield",
      "cfYield",
      "salesYield",
      "bookValueYield",
      "pegPayback",
    ],
  },
  {
    id: "shareholder",
    label: "Dividends and buybacks",
    keys: [
      "dividendYield",
      "trailingDividendYield",
      "forwardDividendYield",
      "forwardDividend",
      "payoutRatio",
      "buyBackYield",
      "totalYield",
    ],
  },
  {
    id: "per-share",
    label: "Per share",
    keys: [
      "salesPerShare",
      "bookValuePerShare",
      "tangibleBookValuePerShare",
      "tangibleBvPerShare3YrAvg",
      "tangibleBvPerShare5YrAvg",
      "cfoPerShare",
      "fcfPerShare",
      "workingCapitalPerShare",
      "workingCapitalPerShare3YrAvg",
      "workingCapitalPerShare5YrAvg",
    ],
  },
  {
    id: "profitability",
    label: "Profitability",
    keys: [
      "grossMargin",
      "operationMargin",
      "ebitMargin",
      "ebitdaMargin",
      "pretaxMargin",
      "netMargin",
      "normalizedNetProfitMargin",
      "roe",
      "roa",
      "roic",
      "cashReturn",
      "fcfSalesRatio",
      "fcfNetIncomeRatio",
      "capExSalesRatio",
    ],
  },
  {
    id: "growth",
    label: "Growth",
    keys: [
      "salesGrowth",
      "operationRevenueGrowth3MonthAvg",
      "operationIncomeGrowth",
      "netIncomeGrowth",
      "netIncomeContOpsGrowth",
      "dilutedEpsGrowth",
      "dilutedConstEpsGrowth",
      "dpsGrowth",
      "equityPerShareGrowth",
      "sustainableGrowthRate",
      "priceChange1M",
    ],
  },
  {
    id: "leverage",
    label: "Leverage and liquidity",
    keys: [
      "debtToEquity",
      "totalDebtEquityRatio",
      "longTermDebtEquityRatio",
      "debtToAssets",
      "financialLeverage",
      "interestCoverage",
      "currentRatio",
      "quickRatio",
    ],
  },
  {
    id: "efficiency",
    label: "Efficiency",
    keys: [
      "assetsTurnover",
      "fixAssetTurnover",
      "inventoryTurnover",
      "receivableTurnover",
      "payableTurnover",
      "daysInInventory",
      "daysInSales",
      "daysInPayment",
      "cashConversionCycle",
    ],
  },
];

/**
 * The keys present, grouped and ordered as `RATIO_GROUPS` reads them; keys no group names (figures the service sent
 * beyond the known ones) end in "Other", in their own order. Empty groups are left out.
 */
export function groupRatios(keys: readonly string[]): { id: string; label: string; keys: string[] }[] {
  const present = new Set(keys);
  const placed = new Set<string>();
  const groups = RATIO_GROUPS.map((g) => {
    const inGroup = g.keys.filter((k) => present.has(k));
    for (const k of inGroup) placed.add(k);
    return { id: g.id, label: g.label, keys: inGroup };
  });
  const other = keys.filter((k) => !placed.has(k));
  return [...groups, { id: "other", label: "Other", keys: other }].filter((g) => g.keys.length > 0);
}
