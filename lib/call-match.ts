import { addDaysIso } from "@/lib/format";
import type { CallListItem } from "@/lib/schemas/calls";

/** What a calendar row needs to know of its call: where it is, and whether it is live. */
export type CallRef = Pick<CallListItem, "callId" | "symbol" | "status" | "startTime" | "period" | "year">;

interface ReportRow {
  id: string;
  ticker: string;
  /** Report date, YYYY-MM-DD (exchange calendar day). */
  date: string;
  period: string | null;
  periodYear: number | null;
}

/** A call belongs to a report it follows by at most this many days (a release before the open, the call next day). */
const CALL_AFTER_DAYS = 4;
/** How far back the lookup goes: a page of the calendar rarely spans more, and older reports keep their page link. */
export const CALL_LOOKUP_DAYS = 60;

/**
 * The days in which the calls of these reports started, if any can exist: reports up to today (a future report has
 * no call yet). At most `CALL_LOOKUP_DAYS`, ending at the newest; null when no report is due yet.
 */
export function callWindow(
  rows: readonly { date: string }[],
  today: string,
): { from: string; to: string } | null {
  let min: string | null = null;
  let max: string | null = null;
  for (const row of rows) {
    if (row.date > today) continue;
    if (min === null || row.date < min) min = row.date;
    if (max === null || row.date > max) max = row.date;
  }
  if (min === null || max === null) return null;
  const end = addDaysIso(max, CALL_AFTER_DAYS);
  const to = end > today ? addDaysIso(today, 1) : end;
  const earliest = addDaysIso(to, -CALL_LOOKUP_DAYS);
  return { from: min < earliest ? earliest : addDaysIso(min, -1), to };
}

/**
 * Each report's call: the company's call of the same fiscal quarter when both say which it is, else its first call
 * that starts from the day before the report to `CALL_AFTER_DAYS` after it. Reports without one are left out.
 */
export function matchCallsToRows<C extends CallRef>(
  rows: readonly ReportRow[],
  calls: readonly C[],
): Map<string, C> {
  const bySymbol = new Map<string, C[]>();
  for (const call of calls) {
    const key = call.symbol.toUpperCase();
    const list = bySymbol.get(key);
    if (list) list.push(call);
    else bySymbol.set(key, [call]);
  }
  const out = new Map<string, C>();
  for (const row of rows) {
    const candidates = bySymbol.get(row.ticker.toUpperCase());
    if (!candidates) continue;
    const sameQuarter = candidates.find(
      (c) =>
        row.period !== null &&
        row.periodYear !== null &&
        c.period === row.period &&
        c.year === row.periodYear,
    );
    if (sameQuarter) {
      out.set(row.id, sameQuarter);
      continue;
    }
    const from = Date.parse(`${addDaysIso(row.date, -1)}T00:00:00Z`);
    const to = Date.parse(`${addDaysIso(row.date, CALL_AFTER_DAYS)}T23:59:59Z`);
    const near = candidates
      .filter((c) => {
        const start = Date.parse(c.startTime);
        return start >= from && start <= to;
      })
      .sort((a, b) => Date.parse(a.startTime) - Date.parse(b.startTime))[0];
    if (near) out.set(row.id, near);
  }
  return out;
}
