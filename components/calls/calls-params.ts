import {
  createParser,
  parseAsArrayOf,
  parseAsInteger,
  parseAsString,
  parseAsStringLiteral,
} from "nuqs/server";
import type { CallListFilters } from "@/lib/queries/calls";
import type { CallListItem } from "@/lib/schemas/calls";
import { isValidIsoDate } from "@/lib/schemas/iso-date";

/**
 * The /calls filters, all in the URL (nuqs) so a copied link reproduces the view. Hand-edited nonsense falls back
 * to defaults instead of erroring.
 */
export const CALL_STATUSES = ["all", "live", "completed"] as const;
export const CALLS_PAGE_SIZE = 20;

const parseAsIsoDay = createParser({
  parse: (value: string) => (isValidIsoDate(value) ? value : null),
  serialize: (value: string) => value,
});

export const callsParams = {
  tickers: parseAsArrayOf(parseAsString).withDefault([]),
  from: parseAsIsoDay,
  to: parseAsIsoDay,
  status: parseAsStringLiteral(CALL_STATUSES).withDefault("all"),
  page: parseAsInteger.withDefault(0),
};

export const callsUrlOptions = { history: "replace", clearOnDefault: true } as const;

/** Tickers typed as "aapl, msft" → ["AAPL", "MSFT"]: upper case, valid symbols, unique, at most 50. */
export function parseTickerInput(values: readonly string[] | string): string[] {
  const list = typeof values === "string" ? values.split(/[\s,]+/) : values;
  const out = new Set<string>();
  for (const v of list) {
    const t = v.trim().toUpperCase();
    if (/^[A-Z0-9][A-Z0-9.-]{0,14}$/.test(t)) out.add(t);
    if (out.size >= 50) break;
  }
  return [...out];
}

/**
 * Dates are calendar days; the API filters on the call's start instant, so the range is sent as the whole days
 * in UTC (from 00:00:00Z to 23:59:59.999Z). A reversed range is read as the two dates typed in the wrong order.
 */
export function dayRange(from: string | null, to: string | null): { from?: string; to?: string } {
  const [a, b] = from && to && from > to ? [to, from] : [from, to];
  return {
    from: a ? `${a}T00:00:00.000Z` : undefined,
    to: b ? `${b}T23:59:59.999Z` : undefined,
  };
}

/** The list query the URL's filters stand for (shared by the page's server prefetch and the browser). */
export function callListFilters(params: {
  tickers: readonly string[];
  from: string | null;
  to: string | null;
  status: (typeof CALL_STATUSES)[number];
  page: number;
}): CallListFilters {
  return {
    tickers: parseTickerInput(params.tickers),
    ...dayRange(params.from, params.to),
    status: params.status,
    page: Math.max(0, params.page),
    pageSize: CALLS_PAGE_SIZE,
  };
}

/** The start-time span of a page's enriched calls, which one summaries request covers; null when there are none. */
export function summarySpan(calls: readonly CallListItem[]): { from: string; to: string } | null {
  const times = calls
    .filter((c) => c.status === "enriched")
    .map((c) => Date.parse(c.startTime))
    .filter(Number.isFinite);
  if (times.length === 0) return null;
  return { from: new Date(Math.min(...times)).toISOString(), to: new Date(Math.max(...times)).toISOString() };
}

/** The summaries query for a page of calls (same for server prefetch and browser). */
export function summaryFilters(tickers: readonly string[], span: { from: string; to: string } | null) {
  return { tickers, from: span?.from, to: span?.to, page: 0, pageSize: 100 };
}
