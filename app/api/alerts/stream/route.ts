// GET /api/alerts/stream – Server-Sent Events of the user's alerts as they fire (`event: alert`, data: Alert)
import { SSE_HEADERS, webSink } from "@/server/http/sse";
import { route } from "@/server/runtime/route";
import { serveUserSse } from "@/server/http/user-sse";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * A stream of its own rather than an event inside `/api/stream`: alerts are per user while the live stream is a
 * shared fan-out keyed by tickers, and an alert must reach every tab of its user whatever calls the tab watches.
 * It counts toward the per-client stream cap like the live stream, and is written by the same SSE writer
 * (server/http/sse.ts). Missed alerts are in the inbox (`/api/alerts`). Removing the user ends it
 * (server/security/user-streams.ts).
 */
export const GET = route({ user: true }, ({ runtime, request, user, signal }) => {
  const release = runtime.limits.acquireStream(runtime.gate.client(request));
  const { bus } = runtime.workspace;
  const { sink, body } = webSink(signal);
  serveUserSse(runtime.userStreams, user, sink, {
    initialId: null,
    subscribe: (send) => bus.subscribeUser(user, (alert) => send({ event: "alert", data: alert }, alert.id)),
    onClose: release,
  });
  return new Response(body, { headers: SSE_HEADERS });
});

/**
 * Headers only. Without it Next answers HEAD with GET: a stream nobody reads, holding one of the client's stream
 * slots, a bus subscription and a heartbeat for good (six HEADs locked an address out of both streams).
 */
export const HEAD = route({ user: true }, () => new Response(null, { headers: SSE_HEADERS }));
