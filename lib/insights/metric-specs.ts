/**
 * Each metric's label and the units its level can take (docs/insights.md, "Metric vocabulary"). A module of its own,
 * apart from the words that find metrics in a sentence (metrics.ts): the pages that only show figures need the
 * labels, not the extraction (docs/performance.md, First-load JS).
 */
import type { FigureMetric, FigureUnit } from "@/lib/schemas/insights";

export interface MetricSpec {
  label: string;
  /** Units of the level ("revenue was $4.2 billion"); empty when only a change is ever stated (comparable sales). */
  level: readonly FigureUnit[];
  /** A ratio in percent: its change is in basis points (or points), and a percent after it is its level. */
  isRatio?: boolean;
  /** The core metrics: what an analyst's model takes first. */
  core?: boolean;
}

export const METRICS: Record<FigureMetric, MetricSpec> = {
  revenue: { label: "Revenue", level: ["usd"], core: true },
  segment_revenue: { label: "Segment revenue", level: ["usd"], core: true },
  comparable_sales: { label: "Comparable sales", level: [], core: true },
  eps: { label: "EPS", level: ["usd_per_share", "usd"], core: true },
  gross_margin: { label: "Gross margin", level: ["percent"], isRatio: true, core: true },
  operating_margin: { label: "Operating margin", level: ["percent"], isRatio: true, core: true },
  net_margin: { label: "Net margin", level: ["percent"], isRatio: true, core: true },
  ebitda_margin: { label: "EBITDA margin", level: ["percent"], isRatio: true },
  gross_profit: { label: "Gross profit", level: ["usd"] },
  operating_income: { label: "Operating income", level: ["usd"], core: true },
  net_income: { label: "Net income", level: ["usd"], core: true },
  ebitda: { label: "EBITDA", level: ["usd"] },
  free_cash_flow: { label: "Free cash flow", level: ["usd"], core: true },
  operating_cash_flow: { label: "Operating cash flow", level: ["usd"], core: true },
  capex: { label: "Capex", level: ["usd"], core: true },
  cash: { label: "Cash", level: ["usd"], core: true },
  liquidity: { label: "Liquidity", level: ["usd"] },
  debt: { label: "Debt", level: ["usd"] },
  buyback: { label: "Buybacks", level: ["usd"], core: true },
  dividend: { label: "Dividend", level: ["usd_per_share", "usd"], core: true },
  tax_rate: { label: "Tax rate", level: ["percent"], isRatio: true },
  backlog: { label: "Backlog", level: ["usd"] },
  bookings: { label: "Bookings", level: ["usd"] },
  subscribers: { label: "Subscribers", level: ["count"] },
  arr: { label: "ARR", level: ["usd"] },
  operating_expenses: { label: "Operating expenses", level: ["usd"] },
  sga: { label: "SG&A", level: ["usd"] },
  interest_expense: { label: "Interest expense", level: ["usd"] },
  inventory: { label: "Inventory", level: ["usd"] },
  volume: { label: "Volume", level: [] },
  price: { label: "Price", level: [] },
  ffo: { label: "FFO", level: ["usd_per_share", "usd"] },
  noi: { label: "NOI", level: ["usd"] },
  occupancy: { label: "Occupancy", level: ["percent"], isRatio: true },
  net_interest_income: { label: "Net interest income", level: ["usd"] },
  net_interest_margin: { label: "Net interest margin", level: ["percent"], isRatio: true },
  loans: { label: "Loans", level: ["usd"] },
  deposits: { label: "Deposits", level: ["usd"] },
  aum: { label: "Assets under management", level: ["usd"] },
};

export const METRIC_LABELS = Object.fromEntries(
  Object.entries(METRICS).map(([m, spec]) => [m, spec.label]),
) as Record<FigureMetric, string>;
