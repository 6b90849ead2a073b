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
/** `market`: the market-data service's calls; `imported`: transcripts brought in with `npm run import`. */
export const CALL_SOURCES = ["market", "imported"] as const;
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
  source: parseAsStringLiteral(CALL_SOURCES).withDefault("market"),
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
  source?: (typeof CALL_SOURCES)[number];
  page: number;
}): CallListFilters {
  return {
    tickers: parseTickerInput(params.tickers),
    ...dayRange(params.from, params.to),
    status: params.status,
    ...(params.source === "imported" ? { source: "imported" as const } : {}),
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

/** Calls the "Your companies" section of the calls list shows; the rest are counted and one click away. */
export const FOLLOWED_CALLS_LIMIT = 10;
/** `/api/calls` takes at most 50 tickers per request. */
export const FOLLOWED_TICKERS_PER_REQUEST = 50;
/** At most this many requests (200 tickers) per view: a bound on what one page load may cost the upstream. */
export const FOLLOWED_MAX_REQUESTS = 4;

/**
 * The followed tickers a view's filters cover, sorted, cut into requests of 50: all of them, or only those the
 * ticker filter names too. `omitted` counts those past the request bound.
 */
export function followedTickerChunks(
  followed: ReadonlySet<string>,
  filterTickers: readonly string[] = [],
): { tickers: string[]; chunks: string[][]; omitted: number } {
  const named = new Set(filterTickers.map((t) => t.toUpperCase()));
  const tickers = [...followed].filter((t) => named.size === 0 || named.has(t)).sort();
  const chunks: string[][] = [];
  for (
    let i = 0;
    i < tickers.length && chunks.length < FOLLOWED_MAX_REQUESTS;
    i += FOLLOWED_TICKERS_PER_REQUEST
  )
    chunks.push(tickers.slice(i, i + FOLLOWED_TICKERS_PER_REQUEST));
  const covered = chunks.reduce((n, c) => n + c.length, 0);
  return { tickers, chunks, omitted: tickers.length - covered };
}

/**
 * The first `limit` calls of several pages of disjoint tickers, ordered as `/api/calls` orders one list (live
 * first, then newest). Each page holds its request's first `limit` calls in that order, so the union's first `limit`
 * are among them.
 */
export function mergeCallPages<T extends { callId: string; status: string; startTime: string }>(
  pages: readonly (readonly T[])[],
  limit: number,
): T[] {
  const seen = new Set<string>();
  const all: T[] = [];
  for (const page of pages)
    for (const call of page) {
      if (seen.has(call.callId)) continue;
      seen.add(call.callId);
      all.push(call);
    }
  const live = (c: T) => (c.status === "live" ? 0 : 1);
  return all
    .sort(
      (a, b) =>
        live(a) - live(b) ||
        Date.parse(b.startTime) - Date.parse(a.startTime) ||
        a.callId.localeCompare(b.callId),
    )
    .slice(0, limit);
}

/**
 * Whether the list opens with "Your companies": on its first page, when the user follows a company, unless the ticker
 * filter names followed companies only (the list is then that section).
 */
export function showsFollowedSection(filters: CallListFilters, followed: ReadonlySet<string>): boolean {
  const named = filters.tickers ?? [];
  // Imported transcripts are listed on their own: "Your companies" follows the market-data service's calls.
  if (filters.source === "imported") return false;
  return (
    filters.page === 0 && followed.size > 0 && !(named.length > 0 && named.every((t) => followed.has(t)))
  );
}

/** One request of the "Your companies" section: the list's filters, these tickers, the first few calls. */
export function followedSectionFilters(
  filters: CallListFilters,
  tickers: readonly string[],
): CallListFilters {
  return { ...filters, tickers, page: 0, pageSize: FOLLOWED_CALLS_LIMIT };
}

/**
 * The summaries of the section's calls, which may lie outside the general page's span: their own request, over the
 * followed tickers (the first 50: the API's limit; the section's ten calls rarely reach past them).
 */
export function followedSummaryFilters(
  tickers: readonly string[],
  span: { from: string; to: string } | null,
) {
  return summaryFilters(tickers.slice(0, FOLLOWED_TICKERS_PER_REQUEST), span);
}
