import "server-only";
import { streamQuerySchema } from "@/lib/schemas/live";
import { parseQuery } from "../http/parse-query";
import type { StreamFilter } from "./hub";

export interface StreamSubscription {
  filter: StreamFilter;
  /** Resume point; null = from now. */
  fromCursor: string | null;
}

/**
 * What a `GET /api/stream` asks for, validated (400 `invalid_parameter` on bad input). Shared by the route handler
 * and the Node-level fast path so both doors accept exactly the same requests.
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
