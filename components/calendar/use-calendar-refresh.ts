"use client";

import { useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { mergeUpdatedRows } from "@/lib/queries/calendar";
import type { PagedEnvelope } from "@/lib/schemas/envelope";

/** Overlap so a record updated in the same second as the last fetch is not missed. */
const OVERLAP_SECONDS = 5;

/**
 * Every `intervalMs` asks only for rows changed since the cached page was fetched (`updatedSince`) and merges them
 * into the cache in place: no reload, no jump of the reader's scroll position, one small request per minute.
 * Skips while the tab is hidden (TanStack Query refetches on focus anyway).
 */
export function useCalendarRefresh<Row extends { id: string }>({
  queryKey,
  fetchUpdated,
  compare,
  enabled,
  intervalMs = 60_000,
}: {
  queryKey: QueryKey;
  fetchUpdated: (updatedSince: number, signal: AbortSignal) => Promise<PagedEnvelope<Row>>;
  compare: (a: Row, b: Row) => number;
  enabled: boolean;
  intervalMs?: number;
}) {
  const queryClient = useQueryClient();
  const [lastError, setLastError] = useState<Date | null>(null);
  const latest = useRef({ queryKey, fetchUpdated, compare });
  useEffect(() => {
    latest.current = { queryKey, fetchUpdated, compare };
  });
  const keyHash = JSON.stringify(queryKey);

  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    const tick = async () => {
      if (document.hidden) return;
      const { queryKey: key, fetchUpdated: fetchRows, compare: cmp } = latest.current;
      const cached = queryClient.getQueryData<PagedEnvelope<Row>>(key);
      if (!cached) return;
      const since = Math.floor(Date.parse(cached.meta.fetchedAt) / 1000) - OVERLAP_SECONDS;
      if (!Number.isFinite(since)) return;
      try {
        const updated = await fetchRows(since, controller.signal);
        queryClient.setQueryData<PagedEnvelope<Row>>(key, (current) =>
          current ? mergeUpdatedRows(current, updated.data, cmp, updated.meta.fetchedAt) : current,
        );
        setLastError(null);
      } catch {
        if (!controller.signal.aborted) setLastError(new Date());
      }
    };
    const timer = setInterval(() => void tick(), intervalMs);
    return () => {
      clearInterval(timer);
      controller.abort();
    };
  }, [enabled, intervalMs, keyHash, queryClient]);

  return { lastError };
}
