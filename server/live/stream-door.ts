import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Door } from "../http/door";
import { toErrorResponse } from "../errors";
import { socketScheme, toWebHeaders } from "../http/node-request";
import type { Logger } from "pino";
import { apiRefusal, refusalResponse, type Gate, type GateRequest } from "../security/gate";
import { applySecurityHeaders } from "../security/headers";
import type { Limits } from "../security/limits";
import type { BrowserFanout } from "./fanout";
import { nodeSink, SSE_HEADERS } from "../http/sse";
import { LOCAL_USER } from "../auth/session";
import { serveUserSse } from "../http/user-sse";
import type { UserStreams } from "../security/user-streams";
import { browserStream, parseStreamRequest } from "./browser-stream";

/**
 * The live stream's door: `GET /api/stream` is answered here, ahead of Next. Next's request machinery (proxy, route
 * promises, web streams, abort controllers) held about 86 KB of heap per open stream and cost several times the CPU
 * per delivered event of a bare `node:http` fan-out; a stream is a long-lived socket that needs none of it. The
 * custom server (scripts/serve.mjs) offers every request to the door first; the door takes the stream's path and
 * declines everything else, which Next then serves as usual.
 *
 * The request passes the same gate as proxy.ts (rate limit, session, request id, access log) and the same validation
 * as the route handler (app/api/stream/route.ts), which remains the fallback when Next is started some other way.
 */

const STREAM_PATH = "/api/stream";
/** The stream is data, never a document: nothing may load or frame under it. */
const STREAM_CSP = "default-src 'none'; frame-ancestors 'none'";

/** True when the door took the request (the caller must then not pass it on). */
export type StreamDoor = Door;

export interface StreamDoorDeps {
  browsers: BrowserFanout;
  gate: Gate;
  limits: Pick<Limits, "acquireStream">;
  /** Each stream is held as its user's, so removing the user ends it (server/security/user-streams.ts). */
  streams: UserStreams;
  log: Logger;
}

export function createStreamDoor(deps: StreamDoorDeps): StreamDoor {
  return (req, res) => {
    if (!req.url) return false;
    const queryAt = req.url.indexOf("?");
    const pathname = queryAt === -1 ? req.url : req.url.slice(0, queryAt);
    if (pathname !== STREAM_PATH) return false;
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, {
        Allow: "GET, HEAD",
        "Content-Type": "application/json",
        "Cache-Control": "no-store",
      });
      res.end(
        JSON.stringify({ error: { code: "method_not_allowed", message: "The live stream answers GET." } }),
      );
      return true;
    }
    serveStream(deps, req, res, queryAt === -1 ? "" : req.url.slice(queryAt + 1)).catch((error: unknown) => {
      deps.log.error({ err: error }, "stream: door failed");
      if (res.headersSent) res.destroy();
      else void send(res, toErrorResponse(error), {});
    });
    return true;
  };
}

async function send(res: ServerResponse, response: Response, extra: Record<string, string>): Promise<void> {
  const body = await response.text();
  const headers: Record<string, string> = { ...extra };
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  res.end(body);
}

async function serveStream(
  deps: StreamDoorDeps,
  req: IncomingMessage,
  res: ServerResponse,
  query: string,
): Promise<void> {
  const headers = toWebHeaders(req.headers);
  const scheme = socketScheme(req);
  const gateRequest: GateRequest = {
    method: "GET",
    pathname: STREAM_PATH,
    headers,
    url: `${scheme}://localhost${STREAM_PATH}`,
  };
  const { gate } = deps;
  const context = gate.context(gateRequest);
  const security = new Headers();
  applySecurityHeaders(security, { csp: STREAM_CSP, https: context.https, requestId: context.requestId });
  const securityHeaders = Object.fromEntries(security);

  const refuse = (response: Response, outcome: string) => {
    gate.log(gateRequest, context, outcome);
    return send(res, response, securityHeaders);
  };

  const verdict = await gate.check(gateRequest, context);
  if (verdict.kind !== "pass") {
    const refusal = apiRefusal(verdict);
    return refuse(refusalResponse(refusal), refusal.outcome);
  }

  let subscription;
  let release: () => void;
  try {
    subscription = parseStreamRequest(new URLSearchParams(query), headers.get("last-event-id"));
    if (req.method === "HEAD") {
      // Headers only: a HEAD must not hold a stream slot, a subscription or a heartbeat timer.
      gate.log(gateRequest, context, "pass");
      res.writeHead(200, { ...SSE_HEADERS, ...securityHeaders });
      res.end();
      return;
    }
    release = deps.limits.acquireStream(context.client);
  } catch (error) {
    return refuse(toErrorResponse(error), "rejected");
  }
  // The gate awaited: the client may have left meanwhile, before any close listener existed.
  if (req.socket.destroyed) {
    release();
    return;
  }
  gate.log(gateRequest, context, "pass");
  serveUserSse(
    deps.streams,
    verdict.user ?? LOCAL_USER,
    nodeSink(res, { ...SSE_HEADERS, ...securityHeaders }),
    browserStream(deps.browsers, subscription, release),
  );
}
