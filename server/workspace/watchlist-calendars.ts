import "server-only";
import { addDaysIso, isoDateInZone } from "@/lib/format";
import { compareEarnings, compareMa } from "@/lib/queries/calendar";
import type { EarningsRow, MaRow } from "@/lib/schemas/calendar";
import type { EARNINGS_SORTS, MA_SORTS } from "@/lib/schemas/calendar-sorts";
import { listEarnings, listMa } from "../upstream/calendars";
import type { Upstream } from "../upstream/client";
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

/** What the calendar feed lists: the next 120 days of reports, soonest first. */
export async function upcomingEarnings(
  upstream: Upstream,
  tickers: readonly string[],
  now = new Date(),
): Promise<EarningsRow[]> {
  const from = isoDateInZone(now);
  const merged = await watchlistEarnings(upstream, tickers, { from, to: addDaysIso(from, 120) });
  return merged.rows.reverse();
}
