// GET /api/stream – Server-Sent Events of live calls (call.started, sentence, call.status, reset).
// Under the custom server this handler is a fallback: the stream door (server/live/stream-door.ts) serves the stream
// ahead of Next (a fraction of the memory and CPU per client). Both validate and gate the request the same way and
// serve it with the one SSE writer (server/http/sse.ts).
import { SSE_HEADERS, webSink } from "@/server/http/sse";
import { browserStream, parseStreamRequest } from "@/server/live/browser-stream";
import { requestUser, route } from "@/server/runtime/route";
import { serveUserSse } from "@/server/http/user-sse";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({}, ({ runtime, request, signal }) => {
  const subscription = parseStreamRequest(
    new URL(request.url).searchParams,
    request.headers.get("last-event-id"),
  );
  const user = requestUser(request, runtime);
  // Per-client cap on open streams (server/security/limits.ts); released when the stream closes.
  const release = runtime.limits.acquireStream(runtime.gate.client(request));
  const { sink, body } = webSink(signal);
  // Held as its user's stream: removing the user ends it (server/security/user-streams.ts).
  serveUserSse(runtime.userStreams, user, sink, browserStream(runtime.live.browsers, subscription, release));
  return new Response(body, { headers: SSE_HEADERS });
});

/** Headers only: without this, Next would answer HEAD with GET and keep a stream open that nobody reads. */
export const HEAD = route({}, ({ request }) => {
  parseStreamRequest(new URL(request.url).searchParams, request.headers.get("last-event-id"));
  return new Response(null, { headers: SSE_HEADERS });
});
