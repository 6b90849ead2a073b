import "server-only";
import { streamQuerySchema } from "@/lib/schemas/live";
import { parseQuery } from "../http/parse-query";
import type { SseCloseReason, SseOptions } from "../http/sse";
import type { BrowserFanout, StreamFilter } from "./fanout";

/**
 * A browser's live stream (`GET /api/stream`), served by the stream door (stream-door.ts) and, when Next is started
 * some other way, by the route handler app/api/stream: both read the request here and serve the same subscription,
 * so they accept and send exactly the same.
 */

export interface StreamSubscription {
  filter: StreamFilter;
  /** Resume point; null = from now. */
  fromCursor: string | null;
}

/**
 * What a `GET /api/stream` asks for, validated (400 `invalid_parameter` on bad input).
 *
 * `Last-Event-ID` wins over `?cursor=`: it is what EventSource sends on its own reconnects, and it is newer than the
 * page's URL. An over-long header is not an error (EventSource echoes whatever id it last saw) but cannot be ours,
 * so it resumes as an unknown cursor: the client gets a `reset` and refetches.
 */
export function parseStreamRequest(
  searchParams: URLSearchParams,
  lastEventId: string | null | undefined,
): StreamSubscription {
  const query = parseQuery(searchParams, streamQuerySchema);
  const header = lastEventId?.trim();
  const fromCursor = (header || query.cursor) ?? null;
  return {
    filter: { tickers: query.tickers ?? [], calls: query.calls ?? [] },
    fromCursor: fromCursor && fromCursor.length > 64 ? "invalid" : fromCursor,
  };
}

/**
 * The SSE writer's options for one browser: its events from the fan-out, each with its cursor as the id. A client
 * that is not resuming gets the current cursor in the preamble, so it resumes from where it joined.
 */
export function browserStream(
  browsers: BrowserFanout,
  subscription: StreamSubscription,
  onClose?: (reason: SseCloseReason) => void,
): SseOptions {
  return {
    initialId: subscription.fromCursor === null ? browsers.headCursor() : null,
    subscribe: (send) =>
      browsers.subscribe(subscription.filter, subscription.fromCursor, (event) => send(event, event.cursor)),
    onClose,
  };
}
