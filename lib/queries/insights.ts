import { queryOptions } from "@tanstack/react-query";
import type { CallInsights } from "@/lib/schemas/insights";
import type { Meta } from "@/lib/schemas/envelope";
import { fetchJson } from "./fetch-json";

/** `GET /api/calls/[callId]/insights` as cached. */
export interface InsightsEnvelope {
  data: CallInsights;
  meta: Meta;
}

export function insightsUrl(callId: string): string {
  return `/api/calls/${encodeURIComponent(callId)}/insights`;
}

export function fetchInsights(callId: string, signal?: AbortSignal): Promise<InsightsEnvelope> {
  return fetchJson<InsightsEnvelope>(insightsUrl(callId), signal);
}

export const insightsQueries = {
  all: () => ["insights"] as const,
  details: () => [...insightsQueries.all(), "detail"] as const,
  /**
   * The browser reads this once per call for its context (consensus, the previous call): the figures, changes and
   * Q&A it shows are recomputed from the transcript the stream keeps current, so there is nothing to poll.
   */
  detail: (callId: string) =>
    queryOptions({
      queryKey: [...insightsQueries.details(), callId] as const,
      queryFn: ({ signal }) => fetchInsights(callId, signal),
      staleTime: 10 * 60_000,
      retry: 1,
    }),
};
