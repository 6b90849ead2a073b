import { queryOptions } from "@tanstack/react-query";
import type { Call, CallListResponse, CallSummary, Segment, SummaryListResponse } from "@/lib/schemas/calls";
import type { Meta } from "@/lib/schemas/envelope";
import { apiUrl, fetchJson } from "./fetch-json";

export { isImportedCall } from "@/lib/imported-calls";

/** `GET /api/calls/[callId]` as cached: the call and the envelope's meta (fetchedAt, stale). */
export interface CallEnvelope {
  data: Call;
  meta: Meta;
}

export type CallStatusFilter = "live" | "completed" | "all";

/** The /calls filters the UI holds in the URL; every one is part of the query key. */
export interface CallListFilters {
  tickers?: readonly string[];
  from?: string;
  to?: string;
  status: CallStatusFilter;
  /** Only the archive's imported transcripts (`npm run import`); absent: the market-data service's calls. */
  source?: "imported";
  page: number;
  pageSize: number;
}

export interface SummaryListFilters {
  tickers?: readonly string[];
  from?: string;
  to?: string;
  page: number;
  pageSize: number;
}

export function callUrl(callId: string): string {
  return `/api/calls/${encodeURIComponent(callId)}`;
}

export function fetchCall(callId: string, signal?: AbortSignal): Promise<CallEnvelope> {
  return fetchJson<CallEnvelope>(callUrl(callId), signal);
}

/** The URL a page of calls is fetched from (the server prefetches the very same query). */
export function callsUrl(filters: CallListFilters): string {
  return apiUrl("/api/calls", {
    tickers: filters.tickers,
    from: filters.from,
    to: filters.to,
    status: filters.status === "all" ? undefined : filters.status,
    source: filters.source,
    page: filters.page,
    pageSize: filters.pageSize,
  });
}

export function summariesUrl(filters: SummaryListFilters): string {
  return apiUrl("/api/summaries", {
    tickers: filters.tickers,
    from: filters.from,
    to: filters.to,
    page: filters.page,
    pageSize: filters.pageSize,
  });
}

export function fetchCalls(filters: CallListFilters, signal?: AbortSignal): Promise<CallListResponse> {
  return fetchJson<CallListResponse>(callsUrl(filters), signal);
}

export function fetchSummaries(filters: SummaryListFilters, signal?: AbortSignal) {
  return fetchJson<SummaryListResponse>(summariesUrl(filters), signal);
}

/**
 * Refetch cadence of a call that is no longer live: the live bus says "completed"/"enriched" over SSE at once, but the
 * MP3, the PDF, speaker names and the summary reach REST a little later (and our server caches REST for seconds).
 * Poll gently until they are all there; a live call needs no polling once its audio exists, the stream carries it.
 */
export function callRefetchInterval(call: Call | undefined): number | false {
  if (!call) return false;
  // A live call's playlist is published with its first audio segment, a moment after the call starts.
  if (call.status === "live") return call.hasAudio ? false : 3_000;
  if (call.status === "completed") return call.hasMp3 ? 10_000 : 4_000;
  return call.summary === null || !call.hasMp3 ? 4_000 : false;
}

export const callQueries = {
  all: () => ["calls"] as const,
  lists: () => [...callQueries.all(), "list"] as const,
  list: (filters: CallListFilters) =>
    queryOptions({
      queryKey: [...callQueries.lists(), filters] as const,
      queryFn: ({ signal }) => fetchCalls(filters, signal),
    }),
  details: () => [...callQueries.all(), "detail"] as const,
  detail: (callId: string) =>
    queryOptions({
      queryKey: [...callQueries.details(), callId] as const,
      queryFn: ({ signal }) => fetchCall(callId, signal),
      // The stream keeps a live call current; refetching on focus would only re-download the transcript.
      staleTime: Infinity,
      refetchInterval: (query) => callRefetchInterval(query.state.data?.data),
    }),
  summaryLists: () => [...callQueries.all(), "summaries"] as const,
  summaries: (filters: SummaryListFilters) =>
    queryOptions({
      queryKey: [...callQueries.summaryLists(), filters] as const,
      queryFn: ({ signal }) => fetchSummaries(filters, signal),
      staleTime: 60_000,
    }),
};

/**
 * Inserts segments into a transcript by sequence: duplicates (a replayed event, a REST snapshot overlapping the
 * stream) are dropped, an existing segment is never replaced by its live copy (REST's may carry the speaker's name
 * and sentiment), and the result stays ordered. Returns the same array when nothing is new, so React skips work.
 */
export function mergeSegments(segments: readonly Segment[], incoming: readonly Segment[]): Segment[] {
  if (incoming.length === 0) return segments as Segment[];
  const last = segments[segments.length - 1];
  const seen = new Set(segments.map((s) => s.sequence));
  const fresh: Segment[] = [];
  for (const s of incoming) {
    if (seen.has(s.sequence)) continue;
    seen.add(s.sequence);
    fresh.push(s);
  }
  if (fresh.length === 0) return segments as Segment[];
  fresh.sort((a, b) => a.sequence - b.sequence);
  // The common case (in-order appends) keeps the existing array's order without a full sort.
  if (!last || (fresh[0] && fresh[0].sequence > last.sequence)) return [...segments, ...fresh];
  return [...segments, ...fresh].sort((a, b) => a.sequence - b.sequence);
}

/** The summary points of one call from a page of summaries, when present. */
export function summaryByCallId(summaries: readonly CallSummary[]): Map<string, CallSummary> {
  return new Map(summaries.map((s) => [s.callId, s]));
}
