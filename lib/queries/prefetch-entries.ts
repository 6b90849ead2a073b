import type { QueryKey } from "@tanstack/react-query";
import type { FundamentalsKind } from "@/lib/schemas/fundamentals";
import { alertQueries } from "./alerts";
import { calendarQueries, earningsUrl, maUrl, type EarningsFilters, type MaFilters } from "./calendar";
import {
  callQueries,
  callUrl,
  callsUrl,
  summariesUrl,
  type CallListFilters,
  type SummaryListFilters,
} from "./calls";
import { fundamentalsQueries, fundamentalsUrl, type FundamentalsParams } from "./fundamentals";
import { LIVE_BOARD_LIMIT, liveQueries } from "./live";
import { searchQueries, searchUrl, type SearchFilters } from "./search";
import { watchlistQueries } from "./watchlists";

/**
 * A client query as the server prefetches it: its key and the `/api` URL its queryFn fetches, both from the same
 * factories the client components use, so a prefetched answer lands exactly where the component looks for it.
 */
export interface ApiQuery {
  queryKey: QueryKey;
  url: string;
}

export const apiQueries = {
  earnings: (f: EarningsFilters): ApiQuery => ({
    queryKey: calendarQueries.earnings(f).queryKey,
    url: earningsUrl(f),
  }),
  ma: (f: MaFilters): ApiQuery => ({ queryKey: calendarQueries.ma(f).queryKey, url: maUrl(f) }),
  fundamentals: (
    kind: FundamentalsKind,
    symbols: readonly string[],
    params?: FundamentalsParams,
  ): ApiQuery => ({
    queryKey: fundamentalsQueries.kind(kind, symbols, params).queryKey,
    url: fundamentalsUrl(kind, symbols, params),
  }),
  calls: (f: CallListFilters): ApiQuery => ({ queryKey: callQueries.list(f).queryKey, url: callsUrl(f) }),
  summaries: (f: SummaryListFilters): ApiQuery => ({
    queryKey: callQueries.summaries(f).queryKey,
    url: summariesUrl(f),
  }),
  call: (callId: string): ApiQuery => ({
    queryKey: callQueries.detail(callId).queryKey,
    url: callUrl(callId),
  }),
  liveBoard: (): ApiQuery => ({
    queryKey: liveQueries.board().queryKey,
    url: callsUrl({ status: "live", page: 0, pageSize: LIVE_BOARD_LIMIT }),
  }),
  /** A /search page's results (the route reads the user, whose notes match too, from the page's request). */
  search: (f: SearchFilters): ApiQuery => ({
    queryKey: searchQueries.results(f).queryKey,
    url: searchUrl(f),
  }),
  alertRules: (): ApiQuery => ({ queryKey: alertQueries.rules().queryKey, url: "/api/alert-rules" }),
  alertMutes: (): ApiQuery => ({ queryKey: alertQueries.mutes().queryKey, url: "/api/alerts/mutes" }),
  /** The user's watchlists (the route reads the user from the page's request). */
  watchlists: (): ApiQuery => ({ queryKey: watchlistQueries.list().queryKey, url: "/api/watchlists" }),
};
