"use client";

import { keepPreviousData, useQueries, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { callQueries, type CallListFilters } from "@/lib/queries/calls";
import { watchlistQueries } from "@/lib/queries/watchlists";
import type { CallListItem } from "@/lib/schemas/calls";

/** The tickers the user follows (every watchlist), upper-case; empty until loaded or when the API is unavailable. */
export function useFollowedTickers(): ReadonlySet<string> {
  const { data } = useQuery(watchlistQueries.list());
  return useMemo(() => new Set(data?.data.flatMap((l) => l.tickers) ?? []), [data]);
}

/** `items` with the followed companies' first, each group in its original order. */
export function followedFirst<T extends { symbol: string }>(
  items: readonly T[],
  followed: ReadonlySet<string>,
): T[] {
  if (followed.size === 0) return items.slice();
  const mine: T[] = [];
  const others: T[] = [];
  for (const item of items) (followed.has(item.symbol.toUpperCase()) ? mine : others).push(item);
  return [...mine, ...others];
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

export interface FollowedCalls {
  /** The followed tickers the filters cover (empty: no section). */
  tickers: string[];
  calls: CallListItem[];
  /** Matching calls of the covered tickers across every page of the list. */
  total: number;
  /** Followed tickers left out past the request bound. */
  omitted: number;
  isPending: boolean;
  isError: boolean;
  refetch: () => void;
}

/**
 * The followed companies' calls under the list's filters (status, dates, tickers), whatever page of the general list
 * they fall on: one `/api/calls` request per 50 tickers (the same query key as a list of those tickers, so the
 * cache is shared), merged.
 */
export function useFollowedCalls(
  filters: CallListFilters,
  followed: ReadonlySet<string>,
  enabled: boolean,
): FollowedCalls {
  const { tickers, chunks, omitted } = followedTickerChunks(followed, filters.tickers);
  return useQueries({
    queries: (enabled ? chunks : []).map((chunk) => ({
      ...callQueries.list({ ...filters, tickers: chunk, page: 0, pageSize: FOLLOWED_CALLS_LIMIT }),
      placeholderData: keepPreviousData,
    })),
    combine: (results) => ({
      tickers: enabled ? tickers : [],
      calls: mergeCallPages(
        results.map((r) => r.data?.data ?? []),
        FOLLOWED_CALLS_LIMIT,
      ),
      total: results.reduce((n, r) => n + (r.data?.meta.total ?? 0), 0),
      omitted,
      isPending: results.some((r) => r.isPending),
      isError: results.some((r) => r.isError),
      refetch: () => {
        for (const r of results) if (r.isError) void r.refetch();
      },
    }),
  });
}
