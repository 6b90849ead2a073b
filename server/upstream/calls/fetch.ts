import "server-only";
import type { Call, CallListItem, CallsQuery, CallSummary, SummariesQuery } from "@/lib/schemas/calls";
import { AppError } from "../../errors";
import { cacheKey, type CachePolicy, type Cached } from "../cache";
import type { Upstream, UpstreamQuery } from "../client";
import {
  toCall,
  toCallListItem,
  toCallSummary,
  toLiveTranscript,
  toMediaLinks,
  toPage,
  type LiveTranscript,
  type MediaLinks,
} from "./transform";
import {
  CALLS_PATH,
  SUMMARIES_PATH,
  upstreamCallListSchema,
  upstreamCallSchema,
  upstreamSummaryListSchema,
  upstreamSummaryResponseSchema,
  type UpstreamCall,
} from "./wire";

/** The reads of calls and summaries: cached for pages, uncached for the live bus, the archive and the media proxy. */

const CALL_POLICIES = {
  /** Live calls change every few seconds, but the hub merges in what the socket said since. */
  detail: { freshMs: 5_000, swrMs: 10_000, staleIfErrorMs: 10 * 60_000 },
  list: { freshMs: 10_000, swrMs: 60_000, staleIfErrorMs: 30 * 60_000 },
  summary: { freshMs: 60_000, swrMs: 10 * 60_000, staleIfErrorMs: 60 * 60_000 },
} as const satisfies Record<string, CachePolicy>;

function callPath(callId: string): string {
  // The id was validated ([A-Za-z0-9_-]{1,64}) by the caller; encoding is belt and braces against path tricks.
  return `${CALLS_PATH}/${encodeURIComponent(callId)}`;
}

/** One call, uncached, in its wire shape: private to this module (readers below hand out app shapes). */
async function fetchUpstreamCall(
  upstream: Upstream,
  callId: string,
  options: { audio?: boolean; pdf?: boolean; signal?: AbortSignal } = {},
): Promise<UpstreamCall | null> {
  const query: UpstreamQuery = {
    audio: options.audio ? "true" : undefined,
    pdf: options.pdf ? "true" : undefined,
  };
  const result = await upstream.http.get(callPath(callId), query, upstreamCallSchema, {
    signal: options.signal,
  });
  return result.status === "no_data" ? null : result.data;
}

/** The whole call as the upstream has it now (never a cached copy): the archive reads it once a call is over. */
export async function fetchLiveCall(
  upstream: Upstream,
  callId: string,
  signal?: AbortSignal,
): Promise<Omit<Call, "streamCursor"> | null> {
  const raw = await fetchUpstreamCall(upstream, callId, { signal });
  return raw ? toCall(raw) : null;
}

/** The call's transcript as the upstream has it now (never a cached copy), unscored: the live bus's gap fill. */
export async function fetchLiveTranscript(
  upstream: Upstream,
  callId: string,
  signal?: AbortSignal,
): Promise<LiveTranscript | null> {
  const raw = await fetchUpstreamCall(upstream, callId, { signal });
  return raw ? toLiveTranscript(raw) : null;
}

/**
 * The call's current signed media links, uncached (the media proxy re-signs through it). `baseUrl` (the service's
 * REST base) resolves the links the documented service gives relative to it.
 */
export async function fetchMediaLinks(
  upstream: Upstream,
  callId: string,
  signal?: AbortSignal,
  baseUrl?: string,
): Promise<MediaLinks | null> {
  const raw = await fetchUpstreamCall(upstream, callId, { audio: true, pdf: true, signal });
  return raw ? toMediaLinks(raw, baseUrl) : null;
}

/** One call in our shape, cached briefly (every browser on a call page shares one upstream read). */
export async function getUpstreamCall(
  upstream: Upstream,
  callId: string,
  options: { signal?: AbortSignal } = {},
): Promise<Cached<Omit<Call, "streamCursor"> | null>> {
  return upstream.cache.get(
    cacheKey(callPath(callId), {}),
    CALL_POLICIES.detail,
    async () => {
      const raw = await fetchUpstreamCall(upstream, callId);
      return raw ? toCall(raw) : null;
    },
    options,
  );
}

export function toUpstreamListQuery(
  query: { tickers?: string[]; from?: string; to?: string },
  status: "IN_PROGRESS" | "COMPLETED",
  page: number,
  pageSize: number,
): UpstreamQuery {
  return {
    page: page + 1,
    page_size: pageSize,
    status,
    symbol: query.tickers?.join(","),
    from: query.from,
    to: query.to,
    sort_by: "start_time",
    info_only: "true",
  };
}

async function fetchCallPage(
  upstream: Upstream,
  query: CallsQuery,
  status: "IN_PROGRESS" | "COMPLETED",
  page: number,
  pageSize: number,
  signal: AbortSignal | undefined,
): Promise<Cached<{ items: CallListItem[]; hits: number }>> {
  const upstreamQuery = toUpstreamListQuery(query, status, page, pageSize);
  return upstream.cache.get(
    cacheKey(CALLS_PATH, upstreamQuery),
    CALL_POLICIES.list,
    async () => {
      const result = await upstream.http.get(CALLS_PATH, upstreamQuery, upstreamCallListSchema);
      if (result.status === "no_data") return { items: [], hits: 0 };
      const rows = Array.isArray(result.data) ? result.data : (result.data.data ?? []);
      return { items: rows.map(toCallListItem), hits: toPage(result.data, rows.length).hits };
    },
    { signal },
  );
}

/**
 * One page (1-based, 100 calls, newest first) of the calls of any status that started at or after `fromIso`,
 * uncached: the live bus's catch-up after a reconnect reads them page by page.
 */
export async function listCallsStartedSince(
  upstream: Upstream,
  fromIso: string,
  options: { signal?: AbortSignal; page?: number } = {},
): Promise<CallListItem[]> {
  const query: UpstreamQuery = {
    page: options.page ?? 1,
    page_size: 100,
    status: "ALL",
    from: fromIso,
    sort_by: "start_time",
    info_only: "true",
  };
  const result = await upstream.http.get(CALLS_PATH, query, upstreamCallListSchema, {
    signal: options.signal,
  });
  if (result.status === "no_data") return [];
  const rows = Array.isArray(result.data) ? result.data : (result.data.data ?? []);
  return rows.map(toCallListItem);
}

export interface CallListPage {
  items: CallListItem[];
  total: number;
  fetchedAt: string;
  stale: boolean;
}

/** How many live calls `status=all` fetches in one go to put them first; more than ever run at once. */
const LIVE_LIST_CAP = 100;

/**
 * `status=all` lists live calls first, then completed ones, newest first within each. The upstream pages each
 * status separately, so page `p` of the combined list is cut from the live list (one read of up to 100) and from
 * the one or two completed pages that cover the remaining offset.
 */
export async function listCalls(
  upstream: Upstream,
  query: CallsQuery,
  options: { signal?: AbortSignal } = {},
): Promise<CallListPage> {
  const { page, pageSize } = query;
  const signal = options.signal;
  if (query.status !== "all") {
    const r = await fetchCallPage(
      upstream,
      query,
      query.status === "live" ? "IN_PROGRESS" : "COMPLETED",
      page,
      pageSize,
      signal,
    );
    return { items: r.value.items, total: r.value.hits, fetchedAt: r.fetchedAt, stale: r.stale };
  }
  const live = await fetchCallPage(upstream, query, "IN_PROGRESS", 0, LIVE_LIST_CAP, signal);
  const liveItems = live.value.items.filter((c) => c.status === "live");
  const offset = page * pageSize;
  const items = liveItems.slice(offset, offset + pageSize);
  const skipCompleted = Math.max(0, offset - liveItems.length);
  const firstPage = Math.floor(skipCompleted / pageSize);
  const first = await fetchCallPage(upstream, query, "COMPLETED", firstPage, pageSize, signal);
  let completed = first.value.items.slice(skipCompleted % pageSize);
  let stale = live.stale || first.stale;
  let fetchedAt = first.fetchedAt < live.fetchedAt ? first.fetchedAt : live.fetchedAt;
  const need = pageSize - items.length;
  if (completed.length < need && (firstPage + 1) * pageSize < first.value.hits) {
    const second = await fetchCallPage(upstream, query, "COMPLETED", firstPage + 1, pageSize, signal);
    completed = [...completed, ...second.value.items];
    stale ||= second.stale;
    if (second.fetchedAt < fetchedAt) fetchedAt = second.fetchedAt;
  }
  const liveIds = new Set(liveItems.map((c) => c.callId));
  items.push(...completed.filter((c) => !liveIds.has(c.callId)).slice(0, need));
  return { items, total: liveItems.length + first.value.hits, fetchedAt, stale };
}

/** A call's summary; 404 until the call is enriched. */
export async function getCallSummary(
  upstream: Upstream,
  callId: string,
  options: { signal?: AbortSignal } = {},
) {
  const path = `${SUMMARIES_PATH}/${encodeURIComponent(callId)}`;
  const cached = await upstream.cache.get(
    cacheKey(path, {}),
    CALL_POLICIES.summary,
    async () => {
      const result = await upstream.http.get(path, {}, upstreamSummaryResponseSchema);
      return result.status === "no_data" || result.data === null
        ? null
        : toCallSummary(result.data, { callId });
    },
    options,
  );
  if (cached.value === null) {
    throw new AppError("not_found", "This call has no summary yet (it appears once the call is enriched).");
  }
  return cached as Cached<CallSummary>;
}

export async function listSummaries(
  upstream: Upstream,
  query: SummariesQuery,
  options: { signal?: AbortSignal } = {},
) {
  const upstreamQuery: UpstreamQuery = {
    page: query.page + 1,
    page_size: query.pageSize,
    symbol: query.tickers?.join(","),
    from: query.from,
    to: query.to,
    sort_by: "created_at",
  };
  const cached = await upstream.cache.get(
    cacheKey(SUMMARIES_PATH, upstreamQuery),
    CALL_POLICIES.list,
    async () => {
      const result = await upstream.http.get(SUMMARIES_PATH, upstreamQuery, upstreamSummaryListSchema);
      if (result.status === "no_data") return { items: [] as CallSummary[], hits: 0 };
      const rows = Array.isArray(result.data) ? result.data : (result.data.data ?? []);
      return { items: rows.map((r) => toCallSummary(r)), hits: toPage(result.data, rows.length).hits };
    },
    options,
  );
  return {
    items: cached.value.items,
    total: cached.value.hits,
    fetchedAt: cached.fetchedAt,
    stale: cached.stale,
  };
}
