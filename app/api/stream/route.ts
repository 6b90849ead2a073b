// GET /api/stream – Server-Sent Events of live calls (call.started, sentence, call.status, reset)
import { streamQuerySchema } from "@/lib/schemas/live";
import { parseQuery } from "@/server/http/parse-query";
import { toErrorResponse } from "@/server/http/errors";
import { getHub } from "@/server/relay/relay";
import { createSseStream, SSE_HEADERS } from "@/server/relay/sse";
import { acquireSseSlot } from "@/server/security/limits";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function GET(request: Request): Response {
  try {
    const url = new URL(request.url);
    const query = parseQuery(url.searchParams, streamQuerySchema);
    // The header wins: it is what EventSource sends on its own reconnects, and it is newer than the page's URL.
    const lastEventId = request.headers.get("last-event-id")?.trim();
    const fromCursor = (lastEventId || query.cursor) ?? null;
    // Per-client cap on open streams (server/security/limits.ts); released when the stream closes.
    const release = acquireSseSlot(request);
    const stream = createSseStream({
      hub: getHub(),
      filter: { tickers: query.tickers ?? [], calls: query.calls ?? [] },
      fromCursor: fromCursor && fromCursor.length <= 64 ? fromCursor : fromCursor ? "invalid" : null,
      signal: request.signal,
      onClose: release,
    });
    return new Response(stream, { headers: SSE_HEADERS });
  } catch (error) {
    return toErrorResponse(error);
  }
}
