import "server-only";
import { addDaysIso, isoDateInZone } from "@/lib/format";
import type { EarningsRow, MaRow } from "@/lib/schemas/calendar";
import { listEarnings, listMa } from "../upstream/calendars";
import type { Upstream } from "../upstream/client";
import { mergedCalendar, type MergedCalendar } from "./watchlist-calendar";

/** The earnings and M&A calendars of a ticker list of any length (see watchlist-calendar.ts), newest first like ours. */

const PAGE_SIZE = 1000;

export interface CalendarRange {
  from?: string;
  to?: string;
  importance?: number;
}

export function watchlistEarnings(
  upstream: Upstream,
  tickers: readonly string[],
  range: CalendarRange,
  signal?: AbortSignal,
): Promise<MergedCalendar<EarningsRow>> {
  return mergedCalendar(
    tickers,
    async (part, page) => {
      const result = await listEarnings(
        upstream,
        { ...range, tickers: part, page, pageSize: PAGE_SIZE, sort: "date:desc" },
        { signal },
      );
      return { rows: result.value, hasMore: result.hasMore };
    },
    (a, b) =>
      b.date.localeCompare(a.date) ||
      (b.time ?? "").localeCompare(a.time ?? "") ||
      a.ticker.localeCompare(b.ticker),
  );
}

export function watchlistMa(
  upstream: Upstream,
  tickers: readonly string[],
  range: CalendarRange,
  signal?: AbortSignal,
): Promise<MergedCalendar<MaRow>> {
  return mergedCalendar(
    tickers,
    async (part, page) => {
      const result = await listMa(
        upstream,
        { ...range, tickers: part, page, pageSize: PAGE_SIZE },
        { signal },
      );
      return { rows: result.value, hasMore: result.hasMore };
    },
    (a, b) => b.announcedDate.localeCompare(a.announcedDate) || a.id.localeCompare(b.id),
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
