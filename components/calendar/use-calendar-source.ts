"use client";

import type { PagedEnvelope } from "@/lib/schemas/envelope";
import {
  fetchWatchlistCalendar,
  watchlistQueries,
  type WatchlistCalendarFilters,
} from "@/lib/queries/watchlists";
import { useWatchlistFilter } from "./watchlist-notice";

/**
 * Where a calendar page's rows come from: every company (the plain calendar query), or the watchlist the URL names,
 * whose rows come from its own endpoint (any number of tickers, merged) in the same envelope. The watchlist query is
 * off until the id is known to name a non-empty watchlist; the page's notice says why when it never will be. The
 * ticker filter does not apply to a watchlist (the watchlist is the ticker filter).
 */
export function useCalendarSource<
  Row,
  Filters extends WatchlistCalendarFilters & { tickers: unknown },
  Query extends { queryKey: readonly unknown[] },
>({
  kind,
  watchlist,
  filters,
  plainQuery,
  fetchPlain,
}: {
  kind: "earnings" | "ma";
  watchlist: string | null;
  filters: Filters;
  plainQuery: Query;
  fetchPlain: (filters: Filters, signal: AbortSignal, updatedSince: number) => Promise<PagedEnvelope<Row>>;
}) {
  const lists = useWatchlistFilter(watchlist);
  const { tickers: _ignored, ...listFilters } = filters;
  const pageOf = kind === "earnings" ? watchlistQueries.earningsPage : watchlistQueries.maPage;
  // The watchlist query's key and rows have the plain query's shape, which is what the page's table reads.
  const query: Query = watchlist
    ? ({
        ...pageOf(lists.readyId ?? watchlist, listFilters),
        enabled: lists.readyId !== null,
      } as unknown as Query)
    : plainQuery;
  const fetchUpdated = (updatedSince: number, signal: AbortSignal): Promise<PagedEnvelope<Row>> =>
    watchlist
      ? (fetchWatchlistCalendar<Row>(
          watchlist,
          kind,
          { ...listFilters, page: 0, pageSize: 1000 },
          signal,
          updatedSince,
        ) as Promise<PagedEnvelope<Row>>)
      : fetchPlain({ ...filters, page: 0, pageSize: 1000 }, signal, updatedSince);
  return { lists, query, fetchUpdated };
}
