"use client";

import { useQuery, type UseQueryOptions } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useMemo } from "react";
import { useRowNavigation } from "@/components/shell/use-row-navigation";
import type { PagedEnvelope } from "@/lib/schemas/envelope";
import { useCalendarRefresh } from "./use-calendar-refresh";

/**
 * What both calendars do with one page of rows: keep the previous page of the same source on screen while the next
 * loads, merge changed rows every minute (useCalendarRefresh), and let j/k/Enter walk the rows and open the company
 * of a row.
 */
export function useCalendarData<Row extends { id: string }, Key extends readonly unknown[]>({
  query,
  fetchUpdated,
  compare,
  hrefOf,
}: {
  query: UseQueryOptions<PagedEnvelope<Row>, Error, PagedEnvelope<Row>, Key>;
  fetchUpdated: (updatedSince: number, signal: AbortSignal) => Promise<PagedEnvelope<Row>>;
  /** The rows' order on screen and when changed rows are merged in; the same function each render (compareEarnings). */
  compare: (a: Row, b: Row) => number;
  /** Where Enter on a row goes; null when the row has no page. */
  hrefOf: (row: Row) => string | null;
}) {
  const router = useRouter();
  // The previous page stays on screen while the next loads, but only from the same source: after switching between
  // every company and a watchlist (or between watchlists), the old rows are not the new answer's, and showing them
  // under the new filter would mislead. A query key's last element holds the filters; what precedes names the source.
  const source = JSON.stringify(query.queryKey.slice(0, -1));
  const result = useQuery({
    ...query,
    placeholderData: (previous, previousQuery) =>
      previousQuery && JSON.stringify(previousQuery.queryKey.slice(0, -1)) === source ? previous : undefined,
  });
  const { data, isPlaceholderData } = result;
  // Shown in the calendar's own order (the upstream's may differ: it lists M&A announcements oldest first).
  const rows = useMemo(() => (data ? [...data.data].sort(compare) : []), [data, compare]);
  const { lastError } = useCalendarRefresh({
    queryKey: query.queryKey,
    fetchUpdated,
    compare,
    enabled: Boolean(data) && !isPlaceholderData,
  });
  const openRow = (index: number) => {
    const row = rows[index];
    const href = row ? hrefOf(row) : null;
    if (href) router.push(href);
  };
  const { activeIndex, setActiveIndex } = useRowNavigation(rows.length, { onOpen: openRow });
  return { ...result, rows, lastError, activeIndex, setActiveIndex };
}

export type CalendarData<Row extends { id: string }> = ReturnType<
  typeof useCalendarData<Row, readonly unknown[]>
>;
