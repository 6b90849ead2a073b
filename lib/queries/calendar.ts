import { queryOptions } from "@tanstack/react-query";
import type { EarningsRow, MaRow } from "@/lib/schemas/calendar";
import type { PagedEnvelope } from "@/lib/schemas/envelope";
import { apiUrl, fetchJson } from "./fetch-json";

/** The calendar filters the UI holds (in the URL); every one of them is part of the query key. */
export interface CalendarFilters {
  from?: string;
  to?: string;
  tickers?: readonly string[];
  importance?: number;
  page: number;
  pageSize: number;
}

export interface EarningsFilters extends CalendarFilters {
  sort?: "date:asc" | "date:desc";
}

export interface MaFilters extends CalendarFilters {
  sort?: "announced" | "expected" | "completed";
}

function queryOf(filters: CalendarFilters & { sort?: string }, updatedSince?: number) {
  return {
    from: filters.from,
    to: filters.to,
    tickers: filters.tickers,
    importance: filters.importance,
    sort: filters.sort,
    page: filters.page,
    pageSize: filters.pageSize,
    updatedSince,
  };
}

/** The URL a page of the earnings calendar is fetched from (the server prefetches the very same query). */
export function earningsUrl(filters: EarningsFilters, updatedSince?: number): string {
  return apiUrl("/api/calendar/earnings", queryOf(filters, updatedSince));
}

export function maUrl(filters: MaFilters, updatedSince?: number): string {
  return apiUrl("/api/calendar/ma", queryOf(filters, updatedSince));
}

export function fetchEarnings(filters: EarningsFilters, signal?: AbortSignal, updatedSince?: number) {
  return fetchJson<PagedEnvelope<EarningsRow>>(earningsUrl(filters, updatedSince), signal);
}

export function fetchMa(filters: MaFilters, signal?: AbortSignal, updatedSince?: number) {
  return fetchJson<PagedEnvelope<MaRow>>(maUrl(filters, updatedSince), signal);
}

export const calendarQueries = {
  all: () => ["calendar"] as const,
  earningsAll: () => [...calendarQueries.all(), "earnings"] as const,
  earnings: (filters: EarningsFilters) =>
    queryOptions({
      queryKey: [...calendarQueries.earningsAll(), filters] as const,
      queryFn: ({ signal }) => fetchEarnings(filters, signal),
    }),
  maAll: () => [...calendarQueries.all(), "ma"] as const,
  ma: (filters: MaFilters) =>
    queryOptions({
      queryKey: [...calendarQueries.maAll(), filters] as const,
      queryFn: ({ signal }) => fetchMa(filters, signal),
    }),
};

/**
 * Merges rows changed since the last poll into a cached page: changed rows replace their old copy in place (the
 * reader's position does not move). Rows not on the page are added (and the list re-sorted by the caller's
 * comparator) only when the page holds the whole result (first page, no more pages): on a partial page a new row
 * might belong to another page, and guessing would show a row twice. Returns the same object when nothing changed.
 */
export function mergeUpdatedRows<Row extends { id: string }>(
  page: PagedEnvelope<Row>,
  updated: readonly Row[],
  compare: (a: Row, b: Row) => number,
  fetchedAt: string,
): PagedEnvelope<Row> {
  if (updated.length === 0) return page;
  const isWholeResult = page.meta.page === 0 && !page.meta.hasMore;
  const byId = new Map(updated.map((row) => [row.id, row]));
  const data = page.data.map((row) => {
    const next = byId.get(row.id);
    if (next) byId.delete(row.id);
    return next ?? row;
  });
  const added = isWholeResult ? [...byId.values()] : [];
  const merged = added.length > 0 ? [...data, ...added].sort(compare) : data;
  return { data: merged, meta: { ...page.meta, fetchedAt } };
}

/** One comparator per sort order, the same function every time: a table can sort by it without re-sorting. */
const comparators = new Map<string, (a: never, b: never) => number>();
function once<T>(key: string, make: () => (a: T, b: T) => number): (a: T, b: T) => number {
  let c = comparators.get(key) as ((a: T, b: T) => number) | undefined;
  if (!c) {
    c = make();
    comparators.set(key, c as (a: never, b: never) => number);
  }
  return c;
}

export function compareEarnings(sort: EarningsFilters["sort"]) {
  return once<EarningsRow>(`earnings:${sort}`, () => {
    const direction = sort === "date:asc" ? 1 : -1;
    return (a, b) =>
      direction * (a.date.localeCompare(b.date) || (a.time ?? "").localeCompare(b.time ?? "")) ||
      a.ticker.localeCompare(b.ticker);
  });
}

/**
 * Deals in the order a reader wants them: the newest announcement first (the upstream lists announcements oldest
 * first, which opened the calendar on deals years old), or the latest expected or completed date first.
 */
export function compareMa(sort: MaFilters["sort"]) {
  return once<MaRow>(`ma:${sort}`, () => (a, b) => {
    if (sort === "expected") return (b.expectedDate ?? "").localeCompare(a.expectedDate ?? "");
    if (sort === "completed") return (b.completedDate ?? "").localeCompare(a.completedDate ?? "");
    return b.announcedDate.localeCompare(a.announcedDate) || a.id.localeCompare(b.id);
  });
}
