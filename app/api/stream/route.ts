// GET /api/stream – Server-Sent Events of live calls (call.started, sentence, call.status, reset).
// Under the custom server this handler is a fallback: the stream door (server/live/stream-door.ts) serves the stream
// ahead of Next (a fraction of the memory and CPU per client). Both validate and gate the request the same way.
import { toErrorResponse } from "@/server/http/errors";
import { createSseStream, SSE_HEADERS } from "@/server/live/sse";
import { parseStreamRequest } from "@/server/live/stream-request";
import { acquireSseSlot } from "@/server/security/limits";
import { withRequestContext } from "@/server/http/request-context";
import { getRuntime } from "@/server/runtime";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = withRequestContext(function GET(request: Request): Response {
  try {
    const { filter, fromCursor } = parseStreamRequest(
      new URL(request.url).searchParams,
      request.headers.get("last-event-id"),
    );
    // Per-client cap on open streams (server/security/limits.ts); released when the stream closes.
    const release = acquireSseSlot(request, getRuntime().metrics);
    const stream = createSseStream({
      hub: getRuntime().live.hub,
      filter,
      fromCursor,
      signal: request.signal,
      onClose: release,
    });
    return new Response(stream, { headers: SSE_HEADERS });
  } catch (error) {
    return toErrorResponse(error);
  }
});

/** Headers only: without this, Next would answer HEAD with GET and keep a stream open that nobody reads. */
export const HEAD = withRequestContext(function HEAD(request: Request): Response {
  try {
    parseStreamRequest(new URL(request.url).searchParams, request.headers.get("last-event-id"));
    return new Response(null, { headers: SSE_HEADERS });
  } catch (error) {
    return toErrorResponse(error);
  }
});
