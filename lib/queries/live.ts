import { queryOptions } from "@tanstack/react-query";
import type { CallListItem, CallListResponse } from "@/lib/schemas/calls";
import type { CallStartedEvent } from "@/lib/schemas/live";
import { callQueries, fetchCalls } from "./calls";

/** At most this many live calls are shown on /live (the upstream pages at 100). */
export const LIVE_BOARD_LIMIT = 100;

export const liveQueries = {
  /**
   * The calls on the /live board. Not under `callQueries.lists()`: list invalidations (a call completed) must not
   * refetch the board, which keeps a call that just completed on screen, marked, instead of making it vanish
   * under the reader's eyes. Only a stream `reset` (or a reload) refetches it.
   */
  board: () =>
    queryOptions({
      queryKey: [...callQueries.all(), "live-board"] as const,
      queryFn: ({ signal }) => fetchCalls({ status: "live", page: 0, pageSize: LIVE_BOARD_LIMIT }, signal),
      staleTime: Infinity,
    }),
};

/** The list item a `call.started` event stands for, until REST knows more (exchange, period, title). */
export function callStartedToListItem(event: CallStartedEvent): CallListItem {
  return {
    callId: event.callId,
    title: `${event.name} earnings call`,
    symbol: event.symbol,
    name: event.name,
    exchange: null,
    period: null,
    year: null,
    startTime: event.startTime,
    endTime: null,
    durationSeconds: null,
    status: "live",
  };
}

/** Adds started calls to the board (once each), keeping the board's meta. */
export function addStartedCalls(
  board: CallListResponse,
  started: readonly CallStartedEvent[],
): CallListResponse {
  const known = new Set(board.data.map((c) => c.callId));
  const added: CallListItem[] = [];
  for (const event of started) {
    if (known.has(event.callId)) continue;
    known.add(event.callId);
    added.push(callStartedToListItem(event));
  }
  if (added.length === 0) return board;
  return { ...board, data: [...board.data, ...added] };
}

/** Orders tiles by start, oldest first: a call that starts later appears after the others and moves nothing. */
export function boardOrder(calls: readonly CallListItem[]): CallListItem[] {
  return [...calls].sort(
    (a, b) => Date.parse(a.startTime) - Date.parse(b.startTime) || a.callId.localeCompare(b.callId),
  );
}
