import {
  infiniteQueryOptions,
  queryOptions,
  useMutation,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from "@tanstack/react-query";
import type {
  Alert,
  AlertList,
  AlertListFilter,
  AlertMute,
  AlertMuteInput,
  AlertRule,
  AlertRuleInput,
  AlertRulePatch,
  MarkAlertsReadResult,
} from "@/lib/schemas/alerts";
import { apiUrl, fetchJson } from "./fetch-json";
import { sendJson } from "./send-json";

const INBOX_PAGE = 100;
/** How many of the newest alerts the bell's query holds. */
const INBOX_LIMIT = 50;

/** The inbox's filters as the browser holds them (`unread` a flag, not the API's "true"). */
export type InboxFilter = Omit<AlertListFilter, "unread"> & { unread?: boolean };

/** The newest `limit` alerts and the unread count (the bell's query). */
function inboxUrl(limit: number): string {
  return apiUrl("/api/alerts", { limit });
}

/** One page of the inbox: `pageSize` alerts older than `before` (the first page: none), filtered. */
function inboxPageUrl(filter: InboxFilter, pageSize: number, before: string | null): string {
  return apiUrl("/api/alerts", {
    limit: pageSize,
    before,
    ticker: filter.ticker,
    ruleId: filter.ruleId,
    callId: filter.callId,
    unread: filter.unread ? "true" : undefined,
  });
}

export const alertQueries = {
  all: () => ["alerts"] as const,
  /**
   * The newest alerts and the user's unread count: the bell's number and the inbox's are both read from this one
   * entry, so they never disagree.
   */
  inbox: (limit = INBOX_LIMIT) =>
    queryOptions({
      queryKey: [...alertQueries.all(), "inbox", limit] as const,
      queryFn: ({ signal }) => fetchJson<AlertList>(inboxUrl(limit), signal),
      staleTime: 15_000,
    }),
  /** The inbox page's list: `pageSize` alerts a page, older pages by `before` (the oldest id shown). */
  inboxPages: (filter: InboxFilter = {}, pageSize = INBOX_PAGE) =>
    infiniteQueryOptions({
      queryKey: [...alertQueries.all(), "inbox", "pages", pageSize, filter] as const,
      queryFn: ({ signal, pageParam }) =>
        fetchJson<AlertList>(inboxPageUrl(filter, pageSize, pageParam), signal),
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
  mutes: () =>
    queryOptions({
      queryKey: [...alertQueries.all(), "mutes"] as const,
      queryFn: ({ signal }) => fetchJson<{ data: AlertMute[] }>("/api/alerts/mutes", signal),
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

/** Edits, pauses or resumes a rule (`PATCH`: any field; `null` clears one). */
export function useUpdateRule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: AlertRulePatch }) =>
      sendJson<{ data: AlertRule }>("PATCH", `/api/alert-rules/${id}`, patch),
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

/**
 * Marks alerts read in every cached list at once (before the server answers), and lowers the shared unread count
 * by as many as it turned, so the bell, the inbox and its rows change together.
 */
export function markReadInCache(
  client: QueryClient,
  isTarget: (alert: AlertList["data"][number]) => boolean,
) {
  let turned = 0;
  const seen = new Set<string>();
  const mark = (list: AlertList): AlertList => ({
    ...list,
    data: list.data.map((alert) => {
      if (alert.read || !isTarget(alert)) return alert;
      if (!seen.has(alert.id)) {
        seen.add(alert.id);
        turned += 1;
      }
      return { ...alert, read: true };
    }),
  });
  client.setQueriesData<InfiniteData<AlertList>>(
    { queryKey: [...alertQueries.all(), "inbox", "pages"] },
    (data) => (data ? { ...data, pages: data.pages.map(mark) } : data),
  );
  client.setQueriesData<AlertList>(
    { queryKey: [...alertQueries.all(), "inbox"], predicate: (q) => q.queryKey[2] !== "pages" },
    (data) => (data ? mark(data) : data),
  );
  return turned;
}

export function lowerUnread(client: QueryClient, by: number) {
  if (by <= 0) return;
  client.setQueriesData<AlertList>(
    { queryKey: [...alertQueries.all(), "inbox"], predicate: (q) => q.queryKey[2] !== "pages" },
    (data) => (data ? { ...data, unread: Math.max(0, data.unread - by) } : data),
  );
}

export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => sendJson("POST", `/api/alerts/${id}/read`),
    onMutate: (id) =>
      lowerUnread(
        client,
        markReadInCache(client, (a) => a.id === id),
      ),
    onSettled: () => client.invalidateQueries({ queryKey: alertQueries.all() }),
  });
}

/**
 * Marks the inbox read up to the newest alert shown (`upTo`), so one arriving meanwhile stays unread; with `callId`,
 * only that call's.
 */
export function useMarkAllRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { upTo?: string; callId?: string } | string | undefined) => {
      const body = typeof input === "string" ? { upTo: input } : (input ?? {});
      return sendJson<MarkAlertsReadResult>("POST", "/api/alerts/read", {
        ...(body.upTo ? { upTo: body.upTo } : {}),
        ...(body.callId ? { callId: body.callId } : {}),
      });
    },
    onSettled: () => client.invalidateQueries({ queryKey: alertQueries.all() }),
  });
}

/**
 * What this tab muted. The server records nothing a mute silences once the mute is stored, and marks read what it
 * recorded before (server/alerts/store.ts); an alert recorded just before the mute can still be on its way to the tab
 * when the mute's answer arrives, and the toast skips it (docs/workspace.md, Triage).
 */
const mutedHere = new Set<string>();

export function mutedInThisTab(alert: Pick<Alert, "callId" | "symbol">): boolean {
  return (
    (alert.callId !== null && mutedHere.has(`call:${alert.callId}`)) ||
    mutedHere.has(`company:${alert.symbol}`)
  );
}

export function useMute() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: AlertMuteInput) =>
      sendJson<{ data: AlertMute; marked: number; unread: number }>("POST", "/api/alerts/mutes", input),
    onMutate: (input) => {
      mutedHere.add(input.scope === "call" ? `call:${input.callId}` : `company:${input.symbol}`);
      return lowerUnread(
        client,
        markReadInCache(client, (a) =>
          input.scope === "call" ? a.callId === input.callId : a.symbol === input.symbol,
        ),
      );
    },
    onSettled: () => client.invalidateQueries({ queryKey: alertQueries.all() }),
  });
}

export function useUnmute() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (mute: Pick<AlertMute, "id" | "scope" | "callId" | "symbol">) =>
      sendJson<null>("DELETE", `/api/alerts/mutes/${mute.id}`),
    onMutate: (mute) => {
      mutedHere.delete(mute.scope === "call" ? `call:${mute.callId}` : `company:${mute.symbol}`);
    },
    onSettled: () => client.invalidateQueries({ queryKey: alertQueries.mutes().queryKey }),
  });
}
