import "server-only";

/**
 * A calendar filtered by a watchlist. The upstream takes at most 50 tickers per request, so a longer list is split
 * into chunks of 50, each chunk is read page by page (up to `maxPages`), and the rows are merged, de-duplicated by
 * id and sorted like one answer would have been. At most `MERGE_CONCURRENCY` chunks are read at once (pages of a
 * chunk one after the other), so one request never has more than that many upstream requests in flight, whatever
 * the number of tickers: 5,000 tickers once started 100 at once and spent the shared key's rate limit.
 */

export const UPSTREAM_TICKERS_MAX = 50;
export const MERGE_CONCURRENCY = 8;

export interface ChunkPage<T> {
  rows: T[];
  hasMore: boolean;
  /** When the upstream answered this page (ISO 8601 UTC) and whether it came from the cache because it failed. */
  fetchedAt?: string;
  stale?: boolean;
}

export interface MergedCalendar<T> {
  rows: T[];
  /** Some chunk had more pages than `maxPages`: the result is cut, say so. */
  isTruncated: boolean;
  requests: number;
  /** The oldest of the pages' `fetchedAt`: the merged answer is only as fresh as its oldest part. */
  fetchedAt: string | null;
  /** Some page was a stale copy. */
  stale: boolean;
}

export function chunk<T>(items: readonly T[], size = UPSTREAM_TICKERS_MAX): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export async function mergedCalendar<T extends { id: string }>(
  tickers: readonly string[],
  fetchPage: (tickers: string[], page: number) => Promise<ChunkPage<T>>,
  compare: (a: T, b: T) => number,
  maxPages = 5,
  concurrency = MERGE_CONCURRENCY,
): Promise<MergedCalendar<T>> {
  if (tickers.length === 0)
    return { rows: [], isTruncated: false, requests: 0, fetchedAt: null, stale: false };
  let requests = 0;
  let isTruncated = false;
  let fetchedAt: string | null = null;
  let stale = false;
  const readChunk = async (part: string[]) => {
    const rows: T[] = [];
    for (let page = 0; page < maxPages; page++) {
      requests += 1;
      const result = await fetchPage(part, page);
      rows.push(...result.rows);
      if (result.fetchedAt && (fetchedAt === null || result.fetchedAt < fetchedAt))
        fetchedAt = result.fetchedAt;
      if (result.stale) stale = true;
      if (!result.hasMore) return rows;
    }
    isTruncated = true;
    return rows;
  };
  const chunks = chunk([...new Set(tickers)]);
  const perChunk: T[][] = new Array<T[]>(chunks.length);
  let next = 0;
  // A few workers taking chunks in turn. The first failure fails the whole merge: no chunk starts after it, and the
  // merge settles once those in flight have (none is left running behind an answered request).
  let failure: { error: unknown } | null = null;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, chunks.length) }, async () => {
      while (!failure && next < chunks.length) {
        const index = next++;
        try {
          perChunk[index] = await readChunk(chunks[index]!);
        } catch (error) {
          failure ??= { error };
        }
      }
    }),
  );
  if (failure) throw (failure as { error: unknown }).error;
  const byId = new Map<string, T>();
  for (const rows of perChunk) for (const row of rows) byId.set(row.id, row);
  return { rows: [...byId.values()].sort(compare), isTruncated, requests, fetchedAt, stale };
}

/**
 * One page of a merged result, for a view that pages like the main calendars. The merge already holds every row,
 * so `hasMore` is exact here (the upstream's own paging can only say "the page was full").
 */
export function pageOfRows<T>(rows: readonly T[], page: number, pageSize: number) {
  const start = page * pageSize;
  return { rows: rows.slice(start, start + pageSize), hasMore: start + pageSize < rows.length };
}
