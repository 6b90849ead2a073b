// GET /api/alerts/stream – Server-Sent Events of the user's alerts as they fire (`event: alert`, data: Alert)
import { toErrorResponse } from "@/server/http/errors";
import { withRequestContext } from "@/server/http/request-context";
import { SSE_HEADERS } from "@/server/live/sse";
import { getRuntime } from "@/server/runtime";
import { acquireSseSlot } from "@/server/security/limits";
import { getWorkspace } from "@/server/workspace";
import { requestUser } from "@/server/workspace/request-user";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * A stream of its own rather than an event inside `/api/stream`: alerts are per user while the live stream is a
 * shared fan-out keyed by tickers, and an alert must reach every tab of its user whatever calls the tab watches.
 * It counts toward the per-client stream cap like the live stream. Missed alerts are in the inbox (`/api/alerts`).
 */
const HEARTBEAT_MS = 20_000;

export const GET = withRequestContext(function GET(request: Request): Response {
  try {
    const user = requestUser(request);
    const release = acquireSseSlot(request, getRuntime().metrics);
    const bus = getWorkspace().bus;
    const encoder = new TextEncoder();
    let cleanup = () => {};
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        const write = (text: string) => {
          try {
            controller.enqueue(encoder.encode(text));
          } catch {
            cleanup();
          }
        };
        write("retry: 3000\n\n");
        const unsubscribe = bus.subscribeUser(user, (alert) =>
          write(`id: ${alert.id}\nevent: alert\ndata: ${JSON.stringify(alert)}\n\n`),
        );
        const heartbeat = setInterval(() => write(": ping\n\n"), HEARTBEAT_MS);
        let closed = false;
        cleanup = () => {
          if (closed) return;
          closed = true;
          unsubscribe();
          clearInterval(heartbeat);
          release();
          try {
            controller.close();
          } catch {
            // Already closed by the client.
          }
        };
        request.signal.addEventListener("abort", () => cleanup(), { once: true });
      },
      cancel() {
        cleanup();
      },
    });
    return new Response(stream, { headers: SSE_HEADERS });
  } catch (error) {
    return toErrorResponse(error);
  }
});

/**
 * Headers only. Without it Next answers HEAD with GET: a stream nobody reads, holding one of the client's stream
 * slots, a bus subscription and a heartbeat for good (six HEADs locked an address out of both streams).
 */
export const HEAD = withRequestContext(function HEAD(request: Request): Response {
  try {
    requestUser(request);
    return new Response(null, { headers: SSE_HEADERS });
  } catch (error) {
    return toErrorResponse(error);
  }
});
