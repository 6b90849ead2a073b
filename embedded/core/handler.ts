/**
 * The request pipeline of the embedded service, in the order the real service's gateway applies it:
 * route match (404 Kong body) → key and plan (401/403) → count → rate limit (429) → injected faults → handler.
 * Control routes skip the key but only answer loopback peers; signed media routes skip key, limit and faults (their
 * link carries its own authorisation, and players must not see REST faults).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import {
  ApiError,
  badParameter,
  forbidden,
  serverError,
  serviceUnavailable,
  tooManyRequests,
  unauthorized,
} from "./api-error";
import { presentedKey, type Authorize } from "./auth";
import type { FaultState } from "./faults";
import { parseTarget } from "./query";
import type { RateLimiter } from "./rate-limit";
import { acceptsXml, isRawResult, NO_ROUTE_BODY, sendApiError, sendJson, sendResult } from "./render";
import { Router } from "./router";
import type { RequestStats } from "./stats";
import type { EmbeddedRequest, RouteDef } from "./types";

export interface RequestHandlerOptions {
  routes: readonly RouteDef[];
  authorize: Authorize;
  rateLimiter: RateLimiter;
  faults: FaultState;
  stats: RequestStats;
  clock?: () => Date;
  /**
   * Rewrites a successful JSON body into another wire dialect (`EMBEDDED_WIRE=documented`); errors, media and the
   * control API are never rewritten.
   */
  transformBody?: (path: string, body: unknown) => unknown;
  /** Where unexpected handler failures are reported (never to the client). */
  logError?: (message: string, error: unknown) => void;
}

const MAX_BODY_BYTES = 1024 * 1024;

export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  return address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");
}

async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw badParameter("body must be at most 1 MiB");
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8").trim();
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badParameter("body must be valid JSON");
  }
}

export function createRequestHandler(options: RequestHandlerOptions) {
  const router = new Router(options.routes);
  const clock = options.clock ?? (() => new Date());
  const logError =
    options.logError ??
    ((message: string, error: unknown) => {
      console.error(message, error);
    });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? "GET").toUpperCase();
    const { path, query } = parseTarget(req.url ?? "/");
    const match = path === null ? null : router.match(method, path);
    if (match === null || path === null) {
      sendJson(res, 404, NO_ROUTE_BODY);
      return;
    }
    const { route, params } = match;
    const now = clock();
    let apiKey: string | null = null;

    if (route.product === null && !route.signed) {
      if (!isLoopback(req.socket.remoteAddress)) {
        sendJson(res, 403, { message: "control API is only available on loopback" });
        return;
      }
    } else if (route.product !== null && !route.signed) {
      const key = presentedKey(req.headers, query);
      const decision = options.authorize(key, route.product);
      if (decision === "unauthorized") throw unauthorized();
      if (decision === "forbidden") throw forbidden();
      apiKey = key;
      options.stats.count(path);
      // By status too, once answered: a client's politeness shows as its count of 429s.
      res.once("close", () => options.stats.countStatus(res.statusCode));
      const rate = options.rateLimiter.take(key as string, now.getTime());
      if (!rate.allowed) throw tooManyRequests(rate.retryAfterSeconds);
      const faults = options.faults.active(now.getTime());
      if (faults !== null) {
        // Unref'd: an injected delay must not keep a closing process (or test worker) alive.
        if (faults.restLatencyMs > 0) await sleep(faults.restLatencyMs, undefined, { ref: false });
        if (options.faults.failsRequest(faults)) {
          if (faults.restStatus === 503) throw serviceUnavailable();
          const base = serverError();
          throw new ApiError(faults.restStatus, base.code, base.id, base.value);
        }
      }
    }

    // The key is the client's secret, not a query parameter of the operation.
    query.delete("token");
    const body = method === "POST" || method === "DELETE" ? await readJsonBody(req) : undefined;
    const request: EmbeddedRequest = {
      method,
      path,
      query,
      headers: req.headers,
      params,
      wantsXml: acceptsXml(req.headers.accept),
      body,
      apiKey,
      now,
    };
    let result = await route.handle(request);
    const transform = options.transformBody;
    if (transform && route.product !== null && !isRawResult(result) && (result.status ?? 200) < 300) {
      result = { ...result, body: transform(path, result.body) };
    }
    if (!res.headersSent) sendResult(res, result, request.wantsXml);
  }

  return (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch((error: unknown) => {
      // The path only: the query may carry the key.
      const path = (req.url ?? "").split("?")[0];
      if (!(error instanceof ApiError)) logError(`embedded: ${req.method ?? "?"} ${path} failed`, error);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendApiError(res, error instanceof ApiError ? error : serverError());
    });
  };
}
