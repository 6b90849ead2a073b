import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { CallSection, SearchResponse, SpeakerRole } from "@/lib/schemas/search";
import { apiUrl, fetchJson, isApiError } from "./fetch-json";

/** The /search filters the page holds in the URL; every one is part of the query key. */
export interface SearchFilters {
  q: string;
  tickers: readonly string[];
  from: string | null;
  to: string | null;
  speaker: SpeakerRole | null;
  section: CallSection | null;
  quarter: string | null;
  page: number;
}

export function searchUrl(f: SearchFilters): string {
  return apiUrl("/api/search", {
    q: f.q.trim(),
    tickers: f.tickers,
    from: f.from,
    to: f.to,
    speaker: f.speaker,
    section: f.section,
    quarter: f.quarter,
    page: f.page > 0 ? f.page : undefined,
  });
}

export function fetchSearch(filters: SearchFilters, signal?: AbortSignal): Promise<SearchResponse> {
  return fetchJson<SearchResponse>(searchUrl(filters), signal);
}

export const searchQueries = {
  all: () => ["search"] as const,
  results: (filters: SearchFilters) =>
    queryOptions({
      queryKey: [...searchQueries.all(), filters] as const,
      queryFn: ({ signal }) => fetchSearch(filters, signal),
      enabled: filters.q.trim().length > 0,
      // Live calls are indexed as they are spoken: a minute-old answer may miss what was just said.
      staleTime: 30_000,
      placeholderData: keepPreviousData,
      // Bad input is answered with a 400 and a sentence to show; asking again would get the same answer.
      retry: (count, error) => count < 2 && !(isApiError(error) && error.status === 400),
    }),
};
