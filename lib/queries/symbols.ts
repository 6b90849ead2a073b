import { queryOptions } from "@tanstack/react-query";
import type { Envelope } from "@/lib/schemas/envelope";
import type { SymbolMatch } from "@/lib/schemas/symbols";
import { apiUrl, fetchJson } from "./fetch-json";
import { staleTimeUnlessStale } from "./stale";

export const symbolQueries = {
  all: () => ["symbols"] as const,
  search: (q: string) =>
    queryOptions({
      queryKey: [...symbolQueries.all(), "search", q] as const,
      queryFn: ({ signal }) => fetchJson<Envelope<SymbolMatch[]>>(apiUrl("/api/symbols", { q }), signal),
      enabled: q.trim().length > 0,
      // The directory changes once a day at most.
      staleTime: staleTimeUnlessStale(5 * 60_000),
    }),
};
