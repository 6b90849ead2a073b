import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { AlertList, AlertRule, AlertRuleInput, MarkAlertsReadResult } from "@/lib/schemas/alerts";
import { apiUrl, fetchJson } from "./fetch-json";
import { sendJson } from "./send-json";

const INBOX_PAGE = 100;

export const alertQueries = {
  all: () => ["alerts"] as const,
  inbox: (limit = 50) =>
    queryOptions({
      queryKey: [...alertQueries.all(), "inbox", limit] as const,
      queryFn: ({ signal }) => fetchJson<AlertList>(apiUrl("/api/alerts", { limit }), signal),
      staleTime: 15_000,
    }),
  /** The inbox page's list: `pageSize` alerts a page, older pages by `before` (the oldest id shown). */
  inboxPages: (pageSize = INBOX_PAGE) =>
    infiniteQueryOptions({
      queryKey: [...alertQueries.all(), "inbox", "pages", pageSize] as const,
      queryFn: ({ signal, pageParam }) =>
        fetchJson<AlertList>(apiUrl("/api/alerts", { limit: pageSize, before: pageParam }), signal),
      initialPageParam: null as string | null,
      getNextPageParam: (last) => (last.data.length < pageSize ? null : (last.data.at(-1)?.id ?? null)),
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

/** Marks the inbox read up to the newest alert shown (`upTo`), so one arriving meanwhile stays unread. */
export function useMarkAllRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (upTo: string | undefined) =>
      sendJson<MarkAlertsReadResult>("POST", "/api/alerts/read", upTo ? { upTo } : {}),
    onSettled: () => client.invalidateQueries({ queryKey: alertQueries.all() }),
  });
}
