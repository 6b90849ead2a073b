import { queryOptions } from "@tanstack/react-query";
import type { Peers } from "@/lib/schemas/peers";
import { fetchJson } from "./fetch-json";

export const peerQueries = {
  of: (symbol: string) =>
    queryOptions({
      queryKey: ["peers", symbol.toUpperCase()] as const,
      queryFn: ({ signal }) =>
        fetchJson<{ data: Peers }>(`/api/companies/${encodeURIComponent(symbol)}/peers`, signal),
      staleTime: 10 * 60_000,
    }),
};
