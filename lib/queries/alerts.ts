import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { AlertList, AlertRule, AlertRuleInput } from "@/lib/schemas/alerts";
import { apiUrl, fetchJson } from "./fetch-json";
import { sendJson } from "./send-json";

export const alertQueries = {
  all: () => ["alerts"] as const,
  inbox: (limit = 50) =>
    queryOptions({
      queryKey: [...alertQueries.all(), "inbox", limit] as const,
      queryFn: ({ signal }) => fetchJson<AlertList>(apiUrl("/api/alerts", { limit }), signal),
      staleTime: 15_000,
    }),
  rules: () =>
    queryOptions({
      queryKey: [...alertQueries.all(), "rules"] as const,
      queryFn: ({ signal }) => fetchJson<{ data: AlertRule[] }>("/api/alert-rules", signal),
      staleTime: 30_000,
    }),
};

export function useCreateRule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: AlertRuleInput) => sendJson<{ data: AlertRule }>("POST", "/api/alert-rules", input),
    onSuccess: () => client.invalidateQueries({ queryKey: alertQueries.all() }),
  });
}

export function useDeleteRule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => sendJson<null>("DELETE", `/api/alert-rules/${id}`),
    onSettled: () => client.invalidateQueries({ queryKey: alertQueries.all() }),
  });
}

export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => sendJson("POST", `/api/alerts/${id}/read`),
    onSettled: () => client.invalidateQueries({ queryKey: alertQueries.all() }),
  });
}
