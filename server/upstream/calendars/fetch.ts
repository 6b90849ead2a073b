import "server-only";
import { z } from "zod";
import type { EarningsQuery, EarningsRow, MaQuery } from "@/lib/schemas/calendar";
import { cacheKey, CACHE_POLICIES, type Cached } from "../cache";
import type { Upstream, UpstreamQuery } from "../client";
import { EARNINGS_PATH, MA_PATH, upstreamEarningsResponseSchema, upstreamMaResponseSchema } from "./wire";
import { toEarningsRows, toMaRows, toUpstreamCalendarQuery } from "./transform";

/** The calendar reads, cached per upstream query. */

export interface CalendarPage<T> extends Cached<T[]> {
  page: number;
  pageSize: number;
  hasMore: boolean;
}

async function listCalendar<T, S extends z.ZodType>(
  upstream: Upstream,
  path: string,
  query: EarningsQuery | MaQuery,
  schema: S,
  map: (body: z.output<S>) => T[],
  signal: AbortSignal | undefined,
): Promise<CalendarPage<T>> {
  const upstreamQuery = toUpstreamCalendarQuery(query);
  const cached = await upstream.cache.get(
    cacheKey(path, upstreamQuery),
    CACHE_POLICIES.calendar,
    async () => {
      const result = await upstream.http.get(path, upstreamQuery, schema);
      return result.status === "no_data" ? [] : map(result.data);
    },
    { signal },
  );
  return {
    ...cached,
    page: query.page,
    pageSize: query.pageSize,
    hasMore: cached.value.length >= query.pageSize,
  };
}

export function listEarnings(
  upstream: Upstream,
  query: EarningsQuery,
  options: { signal?: AbortSignal } = {},
) {
  return listCalendar(
    upstream,
    EARNINGS_PATH,
    query,
    upstreamEarningsResponseSchema,
    toEarningsRows,
    options.signal,
  );
}

export function listMa(upstream: Upstream, query: MaQuery, options: { signal?: AbortSignal } = {}) {
  return listCalendar(upstream, MA_PATH, query, upstreamMaResponseSchema, toMaRows, options.signal);
}

/** One uncached page of earnings rows for an upstream query (the symbol directory pages through the calendar). */
export async function fetchEarningsRows(
  upstream: Upstream,
  upstreamQuery: UpstreamQuery,
): Promise<EarningsRow[]> {
  const result = await upstream.http.get(EARNINGS_PATH, upstreamQuery, upstreamEarningsResponseSchema);
  return result.status === "no_data" ? [] : toEarningsRows(result.data);
}
