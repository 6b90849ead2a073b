/**
 * Fundamentals v3 balance sheet (docs/upstream.md §4): `GET /api/v3/fundamentals/balance-sheet`.
 *
 * Decisions where the contract is silent:
 * - `from`/`to` bound `report_date` (the balance-sheet date, i.e. the period end); rows appear only once published
 *   (`publish_date` is the report's New York date, the row is visible from the report's time on).
 * - without `from`, every published period is returned; `YTD` = 1 January of the current (UTC) year; `1MONTH`,
 *   `1m`, `1M` = the same day one month before `now`.
 * - `reportType`: `A` (default) lists Q1–Q4 and, at each fiscal year end, an `FY` row (the annual report's balance
 *   sheet, same figures as Q4); `P` lists quarters only (press releases); `R` the periods re-presented in a later
 *   annual report; `TTM` the quarter-end balance sheets (a balance sheet is a point in time, so TTM = latest quarter).
 */
import { z } from "zod";
import { badParameter } from "../core/api-error";
import type { JsonResult, RouteDef } from "../core/types";
import { internalsOf } from "../universe/index";
import type { Quarter } from "../universe/model";
import type { Company, Universe } from "../universe/types";
import { parseOrThrow, selectCompanies } from "./fundamentals";

const REPORT_TYPES = ["TTM", "A", "R", "P"] as const;
const reportTypeSchema = z.enum(REPORT_TYPES, {
  error: `reportType must be one of ${REPORT_TYPES.join(", ")}`,
});
const isoDate = /^\d{4}-\d{2}-\d{2}$/;

function parseDate(name: string, value: string): number {
  const ms = Date.parse(`${value}T00:00:00Z`);
  if (!isoDate.test(value) || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value)
    throw badParameter(`${name} must be a date in YYYY-MM-DD format`);
  return ms;
}

function parseFrom(value: string | null, now: Date): number {
  if (value === null) return -Infinity;
  if (value === "YTD") return Date.UTC(now.getUTCFullYear(), 0, 1);
  if (value === "1MONTH" || value === "1m" || value === "1M") {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const day = d.getUTCDate();
    d.setUTCDate(1);
    d.setUTCMonth(d.getUTCMonth() - 1);
    // Clamp (31 March → 28/29 February) instead of overflowing into the next month.
    const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
    d.setUTCDate(Math.min(day, last));
    return d.getTime();
  }
  if (!isoDate.test(value)) throw badParameter("from must be YYYY-MM-DD, YTD, 1MONTH, 1m or 1M");
  return parseDate("from", value);
}

function row(c: Company, q: Quarter, fiscalPeriod: string, reportType: string) {
  const b = q.balance;
  return {
    symbol: c.symbol,
    fiscal_year: q.fiscalYear,
    fiscal_period: fiscalPeriod,
    report_date: q.endDate,
    publish_date: q.reportDate,
    currency: c.currency,
    report_type: reportType,
    cash_and_cash_equivalents: b.cashAndCashEquivalents,
    short_term_investments: b.shortTermInvestments,
    accounts_receivable: b.accountsReceivable,
    inventories: b.inventory,
    other_current_assets: b.otherCurrentAssets,
    total_current_assets: b.currentAssets,
    property_plant_and_equipment_net: b.netPPE,
    goodwill: b.goodwill,
    intangible_assets: b.otherIntangibleAssets,
    long_term_investments: b.longTermInvestments,
    other_noncurrent_assets: b.otherNonCurrentAssets,
    total_noncurrent_assets: b.totalNonCurrentAssets,
    total_assets: b.totalAssets,
    accounts_payable: b.accountsPayable,
    short_term_debt: b.currentDebt,
    other_current_liabilities: b.otherCurrentLiabilities,
    total_current_liabilities: b.currentLiabilities,
    long_term_debt: b.longTermDebt,
    other_noncurrent_liabilities: b.otherNonCurrentLiabilities,
    total_noncurrent_liabilities: b.totalNonCurrentLiabilities,
    total_liabilities: b.totalLiabilities,
    common_stock: b.commonStock,
    retained_earnings: b.retainedEarnings,
    total_equity: b.stockholdersEquity,
    total_liabilities_and_equity: b.totalLiabilitiesAndEquity,
    shares_outstanding: b.sharesOutstanding,
  };
}

export function balanceSheetRoutes(universe: Universe): RouteDef[] {
  return [
    {
      method: "GET",
      pattern: "/api/v3/fundamentals/balance-sheet",
      product: "fundamentals",
      handle: (req): JsonResult => {
        const q = req.query;
        const nowMs = req.now.getTime();
        const reportType = parseOrThrow(reportTypeSchema, q.get("reportType") ?? "A");
        const fromMs = parseFrom(q.get("from"), req.now);
        const to = q.get("to");
        const toMs = to === null ? nowMs : parseDate("to", to);
        if (fromMs > toMs) throw badParameter("from must not be after to");
        const selected = selectCompanies(universe, q, false);
        const internals = internalsOf(universe);
        const data = selected.map(({ company }) => {
          const quarters = internals.modelOf(company).quarters;
          const rows: ReturnType<typeof row>[] = [];
          for (let i = quarters.length - 1; i >= 0; i--) {
            const quarter = quarters[i]!;
            if (quarter.reportMs > nowMs || quarter.endMs < fromMs || quarter.endMs > toMs) continue;
            if (reportType === "R") {
              const restatedBy = quarters.find(
                (x) => x.fiscalQuarter === 4 && x.fiscalYear === quarter.fiscalYear + 1,
              );
              if (!restatedBy || restatedBy.reportMs > nowMs) continue;
            }
            const label = `Q${quarter.fiscalQuarter}`;
            if (reportType === "A" && quarter.fiscalQuarter === 4)
              rows.push(row(company, quarter, "FY", reportType));
            rows.push(row(company, quarter, label, reportType));
          }
          return { symbol: company.symbol, balance_sheet: { type: "general", data: rows } };
        });
        return { body: { ok: "true", data } };
      },
    },
  ];
}
