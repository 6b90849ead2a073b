import { queryOptions } from "@tanstack/react-query";
import { envelopeSchema } from "@/lib/schemas/envelope";
import { symbolMatchSchema } from "@/lib/schemas/symbols";
import { z } from "zod";
import { apiUrl, fetchJson } from "./fetch-json";
import { staleTimeUnlessStale } from "./stale";

const symbolSearchSchema = envelopeSchema(z.array(symbolMatchSchema));

export const symbolQueries = {
  all: () => ["symbols"] as const,
  search: (q: string) =>
    queryOptions({
      queryKey: [...symbolQueries.all(), "search", q] as const,
      queryFn: ({ signal }) => fetchJson(apiUrl("/api/symbols", { q }), symbolSearchSchema, signal),
      enabled: q.trim().length > 0,
      // The directory changes once a day at most.
      staleTime: staleTimeUnlessStale(5 * 60_000),
    }),
};
