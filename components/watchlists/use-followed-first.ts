"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { watchlistQueries } from "@/lib/queries/watchlists";

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

/** Live calls before the others as before, and within each, the followed companies' calls first. */
export function followedFirstByStatus<T extends { symbol: string; status: string }>(
  items: readonly T[],
  followed: ReadonlySet<string>,
): T[] {
  const live = items.filter((c) => c.status === "live");
  const rest = items.filter((c) => c.status !== "live");
  return [...followedFirst(live, followed), ...followedFirst(rest, followed)];
}
