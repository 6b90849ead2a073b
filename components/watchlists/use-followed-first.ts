"use client";

import { keepPreviousData, useQueries, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import {
  FOLLOWED_CALLS_LIMIT,
  followedSectionFilters,
  followedTickerChunks,
  mergeCallPages,
} from "@/components/calls/calls-params";
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
      ...callQueries.list(followedSectionFilters(filters, chunk)),
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
