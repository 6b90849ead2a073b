import "server-only";
import { easternDate } from "@/common/time/eastern";
import { addDaysIso } from "@/lib/format";
import { compareEarnings, compareMa } from "@/lib/queries/calendar";
import type { EarningsRow, MaRow } from "@/lib/schemas/calendar";
import type { EARNINGS_SORTS, MA_SORTS } from "@/lib/schemas/calendar-sorts";
import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import { inBackground } from "../upstream/budget";
import { listEarnings, listMa } from "../upstream/calendars";
import type { Upstream } from "../upstream/client";
import { knownTickers } from "../upstream/symbols";
import { LIMITS } from "../db/user-limits";
import { mergedCalendar, type MergedCalendar } from "./watchlist-calendar";

/**
 * The earnings and M&A calendars of a ticker list of any length (see watchlist-calendar.ts). Without a sort, newest
 * first; with one, in the main calendars' order, through the same comparators the browser merges refreshed rows
 * with, so a row never jumps when a refresh lands.
 */

const PAGE_SIZE = 1000;

export interface CalendarRange {
  from?: string;
  to?: string;
  importance?: number;
  /** Unix seconds: only records changed since (the main calendars' minute refresh). */
  updatedSince?: number;
}

export type EarningsSort = (typeof EARNINGS_SORTS)[number];
export type MaSort = (typeof MA_SORTS)[number];

export function watchlistEarnings(
  upstream: Upstream,
  tickers: readonly string[],
  range: CalendarRange & { sort?: EarningsSort },
  signal?: AbortSignal,
): Promise<MergedCalendar<EarningsRow>> {
  const sort = range.sort ?? "date:desc";
  return mergedCalendar(
    tickers,
    async (part, page) => {
      const result = await listEarnings(
        upstream,
        { ...range, tickers: part, page, pageSize: PAGE_SIZE, sort },
        { signal },
      );
      return {
        rows: result.value,
        hasMore: result.hasMore,
        fetchedAt: result.fetchedAt,
        stale: result.stale,
      };
    },
    compareEarnings(sort),
  );
}

export function watchlistMa(
  upstream: Upstream,
  tickers: readonly string[],
  range: CalendarRange & { sort?: MaSort },
  signal?: AbortSignal,
): Promise<MergedCalendar<MaRow>> {
  return mergedCalendar(
    tickers,
    async (part, page) => {
      // On M&A the upstream matches a ticker as acquirer or target, so a deal between two chunks' tickers comes
      // twice; the merge keeps one copy by id.
      const result = await listMa(
        upstream,
        { ...range, tickers: part, page, pageSize: PAGE_SIZE },
        { signal },
      );
      return {
        rows: result.value,
        hasMore: result.hasMore,
        fetchedAt: result.fetchedAt,
        stale: result.stale,
      };
    },
    range.sort
      ? compareMa(range.sort)
      : (a, b) => b.announcedDate.localeCompare(a.announcedDate) || a.id.localeCompare(b.id),
  );
}

/**
 * The watchlist calendars and the calendar feed as the routes read them (docs/workspace.md, "Watchlists over 50
 * tickers"): one feed GET for 5,000 followed tickers once started 100 upstream requests at once, spent the shared
 * key's rate limit and failed another user's page in the same second. So:
 *
 * - at most `LIMITS.watchlistItemsPerUser` tickers (the rest are left out and counted), and only tickers the symbol
 *   directory knows (server/upstream/symbols; a made-up ticker costs no request);
 * - at most 8 upstream requests in flight for one merge (watchlist-calendar.ts);
 * - the merged result is kept per user for `ttlMs` (60 s; a failure for `failureTtlMs`, 30 s), and identical requests
 *   meanwhile share it, so a calendar application or a reloading tab polling it costs nothing more;
 * - `updatedSince` (the pages' minute refresh) is answered from the kept result, filtered by each row's update time,
 *   so it cannot be used to skip the cache (each minute's value was a new key).
 */

export interface CalendarRequest {
  /** Whose result it is (results are never shared between users). */
  user: string;
  tickers: readonly string[];
}

export interface WatchlistCalendar<T> extends MergedCalendar<T> {
  /** Tickers considered (known to the directory, within the limit), and those left out. */
  tickersUsed: number;
  tickersLeftOut: number;
}

interface Entry {
  result: Promise<WatchlistCalendar<unknown>>;
  expiresAt: number;
}

export interface WatchlistCalendarsOptions {
  ttlMs?: number;
  failureTtlMs?: number;
  maxTickers?: number;
  now?: () => number;
}

export const CALENDAR_CACHE_TTL_MS = 60_000;
export const CALENDAR_FAILURE_TTL_MS = 30_000;

/** How many days back the calendar feed lists reports (so their events can move to the call and link to it). */
export const FEED_PAST_DAYS = 7;

export class WatchlistCalendars {
  private readonly entries: LRUCache<string, Entry>;
  private readonly ttlMs: number;
  private readonly failureTtlMs: number;
  private readonly maxTickers: number;
  private readonly now: () => number;

  constructor(options: WatchlistCalendarsOptions = {}) {
    this.ttlMs = options.ttlMs ?? CALENDAR_CACHE_TTL_MS;
    this.failureTtlMs = options.failureTtlMs ?? CALENDAR_FAILURE_TTL_MS;
    this.maxTickers = options.maxTickers ?? LIMITS.watchlistItemsPerUser;
    this.now = options.now ?? Date.now;
    this.entries = new LRUCache({ max: 500 });
  }

  earnings(
    upstream: Upstream,
    request: CalendarRequest,
    range: CalendarRange & { sort?: EarningsSort },
  ): Promise<WatchlistCalendar<EarningsRow>> {
    const { updatedSince, ...full } = range;
    return this.since(
      this.cached(upstream, request, ["earnings", full], (tickers) =>
        watchlistEarnings(upstream, tickers, full),
      ),
      updatedSince,
    );
  }

  ma(
    upstream: Upstream,
    request: CalendarRequest,
    range: CalendarRange & { sort?: MaSort },
  ): Promise<WatchlistCalendar<MaRow>> {
    const { updatedSince, ...full } = range;
    return this.since(
      this.cached(upstream, request, ["ma", full], (tickers) => watchlistMa(upstream, tickers, full)),
      updatedSince,
    );
  }

  /**
   * The calendar feed's rows: the past 7 and the next 120 days of reports, soonest first. Read in the upstream budget's background
   * lane (server/upstream/budget.ts): a calendar application polls it, nobody waits on it, and it must never take
   * the rate limit from a person's own requests.
   */
  async upcoming(upstream: Upstream, request: CalendarRequest, now = new Date()): Promise<EarningsRow[]> {
    // The past week too: a report just out stays in the calendar, at its call (docs/day.md, Calendar feed).
    const today = easternDate(now);
    const from = addDaysIso(today, -FEED_PAST_DAYS);
    const merged = await inBackground(() =>
      this.cached(upstream, request, ["feed", from], (tickers) =>
        watchlistEarnings(upstream, tickers, { from, to: addDaysIso(today, 120) }),
      ),
    );
    return [...merged.rows].reverse();
  }

  private async since<T extends { updatedAt: string | null }>(
    result: Promise<WatchlistCalendar<T>>,
    updatedSince: number | undefined,
  ): Promise<WatchlistCalendar<T>> {
    const merged = await result;
    if (updatedSince === undefined) return merged;
    const sinceMs = updatedSince * 1000;
    return {
      ...merged,
      rows: merged.rows.filter((row) => row.updatedAt !== null && Date.parse(row.updatedAt) >= sinceMs),
    };
  }

  private cached<T>(
    upstream: Upstream,
    request: CalendarRequest,
    what: unknown,
    load: (tickers: string[]) => Promise<MergedCalendar<T>>,
  ): Promise<WatchlistCalendar<T>> {
    const wanted = [...new Set(request.tickers.map((t) => t.toUpperCase()))];
    const key = createHash("sha256")
      .update(JSON.stringify([request.user, what, wanted]))
      .digest("base64url");
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now) return hit.result as Promise<WatchlistCalendar<T>>;
    const result = (async (): Promise<WatchlistCalendar<T>> => {
      const capped = wanted.slice(0, this.maxTickers);
      const known = capped.length > 0 ? await knownTickers(upstream) : new Set<string>();
      const tickers = capped.filter((t) => known.has(t));
      const merged = await load(tickers);
      return { ...merged, tickersUsed: tickers.length, tickersLeftOut: wanted.length - tickers.length };
    })();
    // Shared while it runs; kept for ttlMs once it succeeded, failureTtlMs once it failed.
    const entry: Entry = { result, expiresAt: Number.POSITIVE_INFINITY };
    result.then(
      () => (entry.expiresAt = this.now() + this.ttlMs),
      () => (entry.expiresAt = this.now() + this.failureTtlMs),
    );
    this.entries.set(key, entry);
    return result;
  }
}
