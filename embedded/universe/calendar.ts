/**
 * Earnings calendar records derived from the quarterly model. The set of report events is fixed at build time;
 * what a record shows (actuals, confirmation, `updated`) depends only on the `now` it is rendered for.
 */
import type { CompanyEntry } from "./companies";
import type { CompanyModel, Quarter } from "./model";
import { hashString } from "./prng";
import { DAY_MS, ymd } from "./time";
import type { WireEarningsRecord } from "./wire";

export interface ReportEvent {
  entry: CompanyEntry;
  model: CompanyModel;
  quarter: Quarter;
  /** Same fiscal quarter a year earlier (for eps_prior / revenue_prior). */
  prior: Quarter | undefined;
  id: string;
  epsType: string;
  revenueType: string;
}

/** 24 hex characters, stable for a key: the shape of the upstream's record ids. */
export function stableId(seed: number, key: string): string {
  return [0, 1, 2].map((i) => hashString(`${seed}|${i}|${key}`).toString(16).padStart(8, "0")).join("");
}

/** Decimal string with three decimals, as the upstream writes amounts ("1.990", "102466000000.000"). */
export const decimal = (v: number): string => (Object.is(v, -0) ? 0 : v).toFixed(3);

export function buildReportEvents(
  seed: number,
  entries: readonly CompanyEntry[],
  models: readonly CompanyModel[],
): ReportEvent[] {
  const events: ReportEvent[] = [];
  entries.forEach((entry, i) => {
    const model = models[i]!;
    const gaap = hashString(`${seed}|gaap|${entry.company.symbol}`) % 5 === 0;
    for (const quarter of model.quarters) {
      events.push({
        entry,
        model,
        quarter,
        prior: model.quarters[quarter.index - 4],
        id: stableId(
          seed,
          `earnings:${entry.company.symbol}:${quarter.fiscalYear}:Q${quarter.fiscalQuarter}`,
        ),
        epsType: entry.sector.epsType === "FFO" ? "FFO" : gaap ? "GAAP" : entry.sector.epsType,
        revenueType: "GAAP",
      });
    }
  });
  events.sort(
    (a, b) =>
      a.quarter.reportMs - b.quarter.reportMs || a.entry.company.symbol.localeCompare(b.entry.company.symbol),
  );
  return events;
}

/** Surprise in percent of the estimate's magnitude, e.g. "4.523" for a 4.523% beat. */
const surprisePercent = (actual: number, estimate: number): string =>
  estimate === 0 ? "" : decimal(((actual - estimate) / Math.abs(estimate)) * 100);

export function toEarningsRecord(event: ReportEvent, nowMs: number): WireEarningsRecord {
  const { entry, quarter, prior } = event;
  const c = entry.company;
  const reported = quarter.reportMs <= nowMs;
  const confirmed = nowMs >= quarter.confirmedMs;
  const eps = quarter.income.dilutedEPS;
  const revenue = quarter.income.totalRevenue;
  return {
    id: event.id,
    date: quarter.reportDate,
    date_confirmed: reported || confirmed ? 1 : 0,
    time: quarter.reportTime,
    ticker: c.symbol,
    exchange: c.exchange,
    isin: c.isin,
    cusip: c.cusip,
    name: c.name,
    currency: c.currency,
    period: `Q${quarter.fiscalQuarter}` as WireEarningsRecord["period"],
    period_year: quarter.fiscalYear,
    eps_type: reported ? event.epsType : "",
    eps: reported ? decimal(eps) : "",
    eps_est: decimal(quarter.epsEstimate),
    eps_prior: prior ? decimal(prior.income.dilutedEPS) : "",
    eps_surprise: reported ? decimal(eps - quarter.epsEstimate) : "",
    eps_surprise_percent: reported ? surprisePercent(eps, quarter.epsEstimate) : "",
    revenue_type: reported ? event.revenueType : "",
    revenue: reported ? decimal(revenue) : "",
    revenue_est: decimal(quarter.revenueEstimate),
    revenue_prior: prior ? decimal(prior.income.totalRevenue) : "",
    revenue_surprise: reported ? decimal(revenue - quarter.revenueEstimate) : "",
    revenue_surprise_percent: reported ? surprisePercent(revenue, quarter.revenueEstimate) : "",
    importance: c.importance,
    notes: "",
    updated: Math.floor(
      (reported ? quarter.reportMs : confirmed ? quarter.confirmedMs : quarter.scheduledMs) / 1000,
    ),
  };
}

/** Records dated within [now − 400 d, now + 90 d] (UTC dates), date then time ascending. */
export function earningsWindow(events: readonly ReportEvent[], nowMs: number): WireEarningsRecord[] {
  const from = ymd(nowMs - 400 * DAY_MS);
  const to = ymd(nowMs + 90 * DAY_MS);
  const out: WireEarningsRecord[] = [];
  for (const event of events) {
    const d = event.quarter.reportDate;
    if (d >= from && d <= to) out.push(toEarningsRecord(event, nowMs));
  }
  return out;
}
