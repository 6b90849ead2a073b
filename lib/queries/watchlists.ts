import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { EarningsRow, MaRow } from "@/lib/schemas/calendar";
import type { PageMeta } from "@/lib/schemas/envelope";
import type { Watchlist, WatchlistCreate, WatchlistPatch } from "@/lib/schemas/watchlists";
import { apiUrl, fetchJson } from "./fetch-json";
import { sendJson } from "./send-json";

export interface WatchlistCalendar<T> {
  data: T[];
  meta: { tickers: string[]; requests: number; isTruncated: boolean };
}

/** A page of a watchlist's calendar in the main calendars' envelope (what `/api/watchlists/{id}/calendar` answers). */
export interface WatchlistCalendarPage<T> {
  data: T[];
  meta: PageMeta & WatchlistCalendar<T>["meta"];
}

/** The main calendar pages' filters, as the watchlist calendar takes them (its tickers are the watchlist's). */
export interface WatchlistCalendarFilters {
  from?: string;
  to?: string;
  importance?: number;
  sort?: string;
  page: number;
  pageSize: number;
}

export function watchlistCalendarUrl(
  id: string,
  kind: "earnings" | "ma",
  filters: WatchlistCalendarFilters,
  updatedSince?: number,
): string {
  return apiUrl(`/api/watchlists/${encodeURIComponent(id)}/calendar`, {
    kind,
    from: filters.from,
    to: filters.to,
    importance: filters.importance,
    sort: filters.sort,
    page: filters.page,
    pageSize: filters.pageSize,
    updatedSince,
  });
}

export function fetchWatchlistCalendar<T>(
  id: string,
  kind: "earnings" | "ma",
  filters: WatchlistCalendarFilters,
  signal?: AbortSignal,
  updatedSince?: number,
) {
  return fetchJson<WatchlistCalendarPage<T>>(watchlistCalendarUrl(id, kind, filters, updatedSince), signal);
}

export const watchlistQueries = {
  all: () => ["watchlists"] as const,
  list: () =>
    queryOptions({
      queryKey: [...watchlistQueries.all(), "list"] as const,
      queryFn: ({ signal }) => fetchJson<{ data: Watchlist[] }>("/api/watchlists", signal),
      staleTime: 30_000,
    }),
  earnings: (id: string, from: string, to: string) =>
    queryOptions({
      queryKey: [...watchlistQueries.all(), "calendar", id, "earnings", from, to] as const,
      queryFn: ({ signal }) =>
        fetchJson<WatchlistCalendar<EarningsRow>>(
          apiUrl(`/api/watchlists/${id}/calendar`, { kind: "earnings", from, to }),
          signal,
        ),
    }),
  ma: (id: string, from: string, to: string) =>
    queryOptions({
      queryKey: [...watchlistQueries.all(), "calendar", id, "ma", from, to] as const,
      queryFn: ({ signal }) =>
        fetchJson<WatchlistCalendar<MaRow>>(
          apiUrl(`/api/watchlists/${id}/calendar`, { kind: "ma", from, to }),
          signal,
        ),
    }),
  /** One page of a watchlist's earnings calendar for the main calendar page. */
  earningsPage: (id: string, filters: WatchlistCalendarFilters) =>
    queryOptions({
      queryKey: [...watchlistQueries.all(), "calendar", id, "earnings", "page", filters] as const,
      queryFn: ({ signal }) => fetchWatchlistCalendar<EarningsRow>(id, "earnings", filters, signal),
    }),
  maPage: (id: string, filters: WatchlistCalendarFilters) =>
    queryOptions({
      queryKey: [...watchlistQueries.all(), "calendar", id, "ma", "page", filters] as const,
      queryFn: ({ signal }) => fetchWatchlistCalendar<MaRow>(id, "ma", filters, signal),
    }),
};

export function useCreateWatchlist() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: WatchlistCreate) =>
      sendJson<{ data: Watchlist; meta?: { unknownTickers?: string[] } }>("POST", "/api/watchlists", input),
    onSettled: () => client.invalidateQueries({ queryKey: watchlistQueries.all() }),
  });
}

export function useUpdateWatchlist() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: WatchlistPatch }) =>
      sendJson<{ data: Watchlist; meta?: { unknownTickers?: string[] } }>(
        "PATCH",
        `/api/watchlists/${id}`,
        patch,
      ),
    onSettled: () => client.invalidateQueries({ queryKey: watchlistQueries.all() }),
  });
}

export function useDeleteWatchlist() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => sendJson<null>("DELETE", `/api/watchlists/${id}`),
    onSettled: () => client.invalidateQueries({ queryKey: watchlistQueries.all() }),
  });
}

/**
 * Follow / unfollow a ticker from anywhere: it goes to the first watchlist (created as "Watchlist" when the user
 * has none); unfollowing removes it from every list that holds it.
 */
export function useFollow() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ symbol, follow }: { symbol: string; follow: boolean }) => {
      const lists = (await client.fetchQuery(watchlistQueries.list())).data;
      if (follow) {
        const first = lists[0];
        if (!first) return sendJson("POST", "/api/watchlists", { name: "Watchlist", tickers: [symbol] });
        return sendJson("PATCH", `/api/watchlists/${first.id}`, { add: [symbol] });
      }
      await Promise.all(
        lists
          .filter((l) => l.tickers.includes(symbol))
          .map((l) => sendJson("PATCH", `/api/watchlists/${l.id}`, { remove: [symbol] })),
      );
      return null;
    },
    onSettled: () => client.invalidateQueries({ queryKey: watchlistQueries.all() }),
  });
}
