import { queryOptions } from "@tanstack/react-query";
import type { Envelope } from "@/lib/schemas/envelope";
import type { FundamentalsItem, FundamentalsKind } from "@/lib/schemas/fundamentals";
import { apiUrl, fetchJson } from "./fetch-json";
import { staleTimeUnlessStale } from "./stale";

export interface FundamentalsParams {
  asOf?: string;
  period?: string;
  reportType?: string;
  /** balance-sheet only */
  from?: string;
  to?: string;
}

/** Symbols are sorted in the key and the URL so "A,B" and "B,A" share one cache entry. */
function canonical(symbols: readonly string[]): string[] {
  return [...new Set(symbols.map((s) => s.toUpperCase()))].sort();
}

/** The URL one kind of fundamentals is fetched from (the server prefetches the very same query). */
export function fundamentalsUrl(
  kind: FundamentalsKind,
  symbols: readonly string[],
  params: FundamentalsParams = {},
): string {
  return apiUrl(`/api/fundamentals/${kind}`, { symbols: canonical(symbols), ...params });
}

export function fetchFundamentals<K extends FundamentalsKind>(
  kind: K,
  symbols: readonly string[],
  params: FundamentalsParams = {},
  signal?: AbortSignal,
) {
  return fetchJson<Envelope<FundamentalsItem<K>[]>>(fundamentalsUrl(kind, symbols, params), signal);
}

export const fundamentalsQueries = {
  all: () => ["fundamentals"] as const,
  kind: <K extends FundamentalsKind>(kind: K, symbols: readonly string[], params: FundamentalsParams = {}) =>
    queryOptions({
      queryKey: [...fundamentalsQueries.all(), kind, canonical(symbols), params] as const,
      queryFn: ({ signal }) => fetchFundamentals(kind, symbols, params, signal),
      enabled: symbols.length > 0,
      // Fundamentals change monthly at most.
      staleTime: staleTimeUnlessStale(10 * 60_000),
    }),
};
