import { useQueries } from "@tanstack/react-query";
import type { EarningsRow } from "@/lib/schemas/calendar";
import { calendarQueries, compareEarnings, type EarningsFilters } from "./calendar";

/** The calendar takes 50 tickers a request; four requests cover 200 followed companies. */
const CHUNK = 50;
const MAX_CHUNKS = 4;

export interface FollowedReports {
  rows: EarningsRow[];
  /** Followed tickers past the request bound, left out (said on screen). */
  omitted: number;
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  refetch: () => void;
  /** The oldest answer's meta, for the stale note. */
  stale: { fetchedAt: string } | null;
}

/** The filters of one chunk: every report of these companies in the days, whatever its importance. */
export function followedReportFilters(tickers: readonly string[], from: string, to: string): EarningsFilters {
  return { from, to, tickers: [...tickers].sort(), page: 0, pageSize: 1000, sort: "date:asc" };
}

/**
 * Every report of the followed companies between two days, whatever its importance (the overview's "My companies"):
 * one calendar request per 50 tickers, merged in date order. An empty `tickers` asks nothing.
 */
export function useFollowedReports(tickers: readonly string[], from: string, to: string): FollowedReports {
  const sorted = [...tickers].sort();
  const chunks: string[][] = [];
  for (let i = 0; i < sorted.length && chunks.length < MAX_CHUNKS; i += CHUNK)
    chunks.push(sorted.slice(i, i + CHUNK));
  const omitted = Math.max(0, sorted.length - MAX_CHUNKS * CHUNK);
  return useQueries({
    queries: chunks.map((chunk) => calendarQueries.earnings(followedReportFilters(chunk, from, to))),
    combine: (results) => {
      const stale = results.find((r) => r.data?.meta.stale)?.data?.meta ?? null;
      return {
        rows: results.flatMap((r) => r.data?.data ?? []).sort(compareEarnings("date:asc")),
        omitted,
        isPending: results.some((r) => r.isPending),
        isError: results.some((r) => r.isError),
        error: results.find((r) => r.error)?.error ?? null,
        refetch: () => {
          for (const r of results) if (r.isError) void r.refetch();
        },
        stale: stale ? { fetchedAt: stale.fetchedAt } : null,
      };
    },
  });
}
