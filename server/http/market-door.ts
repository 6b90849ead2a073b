import "server-only";
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { toErrorResponse } from "../errors";
import { withRequestId } from "../log";
import { apiRefusal, refusalResponse, type Gate, type GateRequest } from "../security/gate";
import { applySecurityHeaders, buildCsp, createNonce } from "../security/headers";
import type { AnswerStore, StoredAnswer } from "./answer-store";
import { negotiateCoding } from "./content-encoding";
import type { Door } from "./door";
import { ifNoneMatchHolds } from "./etag";
import { socketScheme, splitTarget, toWebHeaders } from "./node-request";

/**
 * The market-data routes served by the custom server itself, behind this small router (issue 24; the decision and
 * its figures: docs/architecture.md "The market-data routes", docs/performance.md "Cached answers"). Their answers
 * (calendars, fundamentals, symbols, summaries) are the same for every user; through Next a cached answer cost about
 * 3 ms of CPU (router, proxy, a web Request/Response pair, gzip on every request), here a stored one costs what a
 * bare `node:http` server pays plus the gate.
 *
 * Per `GET` to a route's path:
 *
 * - the gate first (server/security/gate.ts: rate limit, session, request id, access log), as `proxy.ts` does;
 * - an answer stored and still fresh goes out as stored, with the security headers, a strong `ETag` (304 on
 *   `If-None-Match`), `Cache-Control` with the freshness left, and the body in the best coding the client accepts,
 *   compressed once per stored answer (server/http/answer-store.ts);
 * - otherwise the route answers (`MarketRoute.answer`, server/upstream/market-routes.ts): concurrent requests for
 *   one key share one answer; a 200 JSON answer the route declared fresh (`private, max-age=N`, N > 0, no cookie)
 *   is stored for those N seconds; anything else goes out as the route made it;
 * - an answer expired for less than `STALE_LIMIT_SECONDS`: one request a second at most asks the route again (its
 *   upstream copy revalidates meanwhile, and it answers `max-age=0` until then); the others get the stored answer
 *   with `max-age=0`. Without this every request of the revalidation window paid the route's full cost.
 *
 * Nothing here touches the response's methods: the router writes each answer once, with `writeHead` and `end`.
 * In `next dev` it stands aside (`disabled`): Next serves the same answers through `app/api/…/route.ts`, where an
 * edited route is reloaded.
 */

export interface MarketRoute {
  /** Matched against the request's path (without its query). */
  pattern: RegExp;
  /** The route's answer for this URL; throws our errors (server/errors.ts) for a bad query or a failed upstream. */
  answer(url: URL, signal?: AbortSignal): Promise<Response>;
}

export interface MarketDoorDeps {
  routes: readonly MarketRoute[];
  store: AnswerStore;
  log: Logger;
  gate: Gate;
  disabled?: boolean;
  dev?: boolean;
}

/** Set per request (the gate's, the connection's), never replayed from a stored answer. */
const PER_REQUEST_HEADERS = new Set([
  "cache-control",
  "connection",
  "content-encoding",
  "content-length",
  "content-security-policy",
  "date",
  "etag",
  "keep-alive",
  "strict-transport-security",
  "transfer-encoding",
  "x-request-id",
]);

const FRESH = /^private, max-age=(\d+)$/;
/** After expiry, how often a request asks the route again (the others get the stored answer). */
const ASK_INTERVAL_MS = 1_000;

/** What a route answered, read once, for every request waiting on it. */
type Answered =
  | { kind: "stored"; answer: StoredAnswer }
  | { kind: "passed"; status: number; headers: OutgoingHttpHeaders; body: Buffer };

export function createMarketDoor(deps: MarketDoorDeps): Door {
  const { store } = deps;
  /** Answers being made, by key: concurrent requests for one key wait on one. */
  const making = new Map<string, Promise<Answered>>();
  /** Keys whose stored answer has expired: when a request last asked the route. */
  const asked = new Map<string, number>();

  const make = (key: string, route: MarketRoute, url: URL, requestId: string): Promise<Answered> => {
    let pending = making.get(key);
    if (!pending) {
      pending = withRequestId(requestId, () => answerOf(deps, key, route, url))
        .then((answered) => {
          if (answered.kind === "stored") asked.delete(key);
          return answered;
        })
        .finally(() => making.delete(key));
      making.set(key, pending);
    }
    return pending;
  };

  return (req, res) => {
    if (deps.disabled || req.method !== "GET" || !req.url) return false;
    const [pathname] = splitTarget(req.url);
    const route = deps.routes.find((candidate) => candidate.pattern.test(pathname));
    if (!route) return false;
    serve(req, res, route, pathname).catch((error: unknown) => {
      deps.log.error({ err: error }, "market door: failed");
      if (!res.headersSent) {
        res.writeHead(500, { "Content-Type": "application/json", "Cache-Control": "no-store" });
      }
      res.end();
    });
    return true;
  };

  async function serve(req: IncomingMessage, res: ServerResponse, route: MarketRoute, pathname: string) {
    const { gate } = deps;
    const scheme = socketScheme(req);
    const gateRequest: GateRequest = {
      method: "GET",
      pathname,
      headers: toWebHeaders(req.headers),
      url: `${scheme}://localhost${pathname}`,
    };
    const context = gate.context(gateRequest);
    const securityHeaders: OutgoingHttpHeaders = {
      ...staticSecurityHeaders(context.https),
      "content-security-policy": buildCsp(createNonce(), { dev: deps.dev ?? false }),
      "x-request-id": context.requestId,
    };
    const verdict = await gate.check(gateRequest, context);
    if (verdict.kind !== "pass") {
      const refusal = apiRefusal(verdict);
      gate.log(gateRequest, context, refusal.outcome);
      await writeResponse(res, refusalResponse(refusal), securityHeaders);
      return;
    }
    gate.log(gateRequest, context, "pass");

    const key = req.url!;
    const found = store.lookup(key);
    if (
      found &&
      (found.fresh || making.has(key) || store.now() - (asked.get(key) ?? -Infinity) < ASK_INTERVAL_MS)
    ) {
      return writeStored(req, res, key, found.answer, securityHeaders);
    }
    if (found) asked.set(key, store.now());
    else asked.delete(key);
    const url = new URL(req.url!, `${scheme}://localhost`);
    const answered = await make(key, route, url, context.requestId);
    if (req.socket.destroyed) return;
    if (answered.kind === "stored") return writeStored(req, res, key, answered.answer, securityHeaders);
    res.writeHead(answered.status, {
      ...answered.headers,
      ...securityHeaders,
      "content-length": answered.body.length,
    });
    res.end(answered.body);
  }

  async function writeStored(
    req: IncomingMessage,
    res: ServerResponse,
    key: string,
    answer: StoredAnswer,
    securityHeaders: OutgoingHttpHeaders,
  ): Promise<void> {
    const headers: OutgoingHttpHeaders = {
      ...answer.headers,
      ...securityHeaders,
      // Zero once expired (served while one request asks the route): what the route answers while it revalidates.
      "cache-control": `private, max-age=${Math.max(0, store.remainingSeconds(answer))}`,
      etag: answer.etag,
    };
    if (ifNoneMatchHolds(req.headers["if-none-match"], answer.etag)) {
      delete headers["content-type"];
      res.writeHead(304, headers);
      res.end();
      return;
    }
    const coding = negotiateCoding(req.headers["accept-encoding"]);
    const body = await store.encoded(key, answer, coding);
    if (coding !== "identity") headers["content-encoding"] = coding;
    headers["content-length"] = body.length;
    if (req.socket.destroyed) return;
    res.writeHead(200, headers);
    res.end(body);
  }
}

/** Runs the route and reads its answer whole; stores it when the route declared it fresh. */
async function answerOf(deps: MarketDoorDeps, key: string, route: MarketRoute, url: URL): Promise<Answered> {
  let response: Response;
  try {
    response = await route.answer(url);
  } catch (error) {
    response = toErrorResponse(error);
  }
  const body = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!PER_REQUEST_HEADERS.has(name)) headers[name] = value;
  });
  const maxAge = Number(FRESH.exec(response.headers.get("cache-control") ?? "")?.[1] ?? 0);
  const storable =
    response.status === 200 &&
    maxAge > 0 &&
    /^application\/json\b/.test(response.headers.get("content-type") ?? "") &&
    !response.headers.has("set-cookie");
  if (storable) {
    // Stored answers go out in whichever coding each client accepts.
    headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : "Accept-Encoding";
    return { kind: "stored", answer: deps.store.put(key, body, headers, maxAge) };
  }
  headers["cache-control"] = response.headers.get("cache-control") ?? "no-store";
  return { kind: "passed", status: response.status, headers, body };
}

async function writeResponse(
  res: ServerResponse,
  response: Response,
  extra: OutgoingHttpHeaders,
): Promise<void> {
  const headers: OutgoingHttpHeaders = { ...extra };
  response.headers.forEach((value, name) => (headers[name] = value));
  const body = Buffer.from(await response.arrayBuffer());
  headers["content-length"] = body.length;
  res.writeHead(response.status, headers);
  res.end(body);
}

const staticHeaders = new Map<boolean, Readonly<Record<string, string>>>();

/** The security headers that do not change per request (all but the CSP nonce and the request id), made once. */
function staticSecurityHeaders(https: boolean): Readonly<Record<string, string>> {
  let headers = staticHeaders.get(https);
  if (!headers) {
    const made = new Headers();
    applySecurityHeaders(made, { https, requestId: "" });
    made.delete("x-request-id");
    headers = Object.freeze(Object.fromEntries(made));
    staticHeaders.set(https, headers);
  }
  return headers;
}
