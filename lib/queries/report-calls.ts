import { queryOptions, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { callWindow, matchCallsToRows } from "@/lib/call-match";
import { easternDate } from "@/common/time/eastern";
import type { CallListItem, CallListResponse } from "@/lib/schemas/calls";
import { apiUrl, fetchJson } from "./fetch-json";
import { callQueries } from "./calls";

/** One page of the calls list holds 100; a window of a busy season's week holds a few hundred at most. */
const PAGE = 100;
const MAX_PAGES = 6;

/**
 * Every call (live and past) that started in a window of days, in as few requests as the list allows. `get` asks
 * `/api` for one page: the browser's fetch, or on the server the route itself (app/(dashboard)/_server/prefetch.ts).
 */
export async function fetchCallsInWindow(
  from: string,
  to: string,
  get: (url: string) => Promise<CallListResponse>,
): Promise<CallListItem[]> {
  const calls: CallListItem[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await get(apiUrl("/api/calls", { from, to, page, pageSize: PAGE }));
    calls.push(...answer.data);
    if (answer.data.length < PAGE || calls.length >= answer.meta.total) break;
  }
  return calls;
}

export const reportCallQueries = {
  window: (from: string, to: string) =>
    queryOptions({
      queryKey: [...callQueries.all(), "window", from, to] as const,
      queryFn: ({ signal }) =>
        fetchCallsInWindow(from, to, (url) => fetchJson<CallListResponse>(url, signal)),
      staleTime: 60_000,
      refetchInterval: 60_000,
    }),
};

/**
 * The call of each calendar row that has one (live, or over and archived): a calendar row is a way into its call.
 * One lookup per window of days, shared by every table showing those days; rows still to come have none.
 */
export function useReportCalls(
  rows: readonly {
    id: string;
    ticker: string;
    date: string;
    period: string | null;
    periodYear: number | null;
  }[],
): Map<string, CallListItem> {
  const today = easternDate(new Date());
  const window = callWindow(rows, today);
  const calls = useQuery({
    ...reportCallQueries.window(window?.from ?? "", window?.to ?? ""),
    enabled: window !== null,
  });
  return useMemo(() => matchCallsToRows(rows, calls.data ?? []), [rows, calls.data]);
}
