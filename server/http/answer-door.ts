import "server-only";
import { ServerResponse, type IncomingMessage, type OutgoingHttpHeaders } from "node:http";
import { gunzipSync } from "node:zlib";
import type { Logger } from "pino";
import { apiRefusal, refusalResponse, type Gate, type GateRequest } from "../security/gate";
import { applySecurityHeaders, buildCsp, createNonce } from "../security/headers";
import type { AnswerStore, StoredAnswer } from "./answer-store";
import { negotiateCoding } from "./content-encoding";
import type { Door } from "./door";
import { ifNoneMatchHolds } from "./etag";
import { socketScheme, splitTarget, toWebHeaders } from "./node-request";

/**
 * Cached answers served ahead of Next (issue 13). A cached `GET /api/calendar/earnings` cost Next about 3 ms of CPU
 * (proxy, routing, a web `Request`/`Response` pair, the handler's envelope and JSON.stringify of 60 kB, and gzip on
 * every request); a bare `node:http` server writes the same bytes in a twentieth of that (docs/performance.md).
 *
 * How it works, per request to a market-data path (`CACHEABLE` below; their answers are the same for every user):
 *
 * - answer stored and still fresh: the door passes the request through the gate (server/security/gate.ts: rate
 *   limit, session, request id, access log) and writes the stored bytes with the security headers the proxy would
 *   add, a strong `ETag` (304 on `If-None-Match`), `Cache-Control` with the freshness left, and the body in the best
 *   coding the client accepts, compressed once per stored answer (server/http/answer-store.ts);
 * - otherwise it declines, and Next serves the request as ever (proxy, route handler), while the door holds back
 *   Next's output until it ends: a 200 JSON answer the route declared fresh (`private, max-age=N`, N > 0, no cookie)
 *   is stored for those N seconds, and the answer goes out with its `ETag` added. Anything else goes out unchanged;
 * - answer stored but expired (for less than `STALE_LIMIT_SECONDS`, 30 s): one request a second at most goes to
 *   Next, whose route revalidates its upstream copy meanwhile and answers the same body with `max-age=0`; the other
 *   requests get the stored answer with `max-age=0`, exactly that, until Next answers fresh again and that is stored.
 *   Without this, every request in the revalidation window paid Next's full cost (measured: 65 requests/s for 8 s).
 *
 * The stored answer is exactly what the route wrote, headers and all, so the route stays the one definition of its
 * shape; the door only replays it for as long as the route said it was fresh (which is also as long as the response
 * cache would give the route the same upstream copy).
 */

const CACHEABLE = [
  /^\/api\/calendar\/(?:earnings|ma)$/,
  /^\/api\/fundamentals\/[A-Za-z0-9_-]+$/,
  /^\/api\/symbols$/,
  /^\/api\/summaries$/,
];

/** Set per request (by the gate, for the connection or for this answer), never replayed from a stored answer. */
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
/** After expiry, how often a request goes to ask Next for a fresh answer (the others get the stored one). */
const ASK_INTERVAL_MS = 1_000;
const ASKING_TIMEOUT_MS = 10_000;

export interface AnswerDoorDeps {
  store: AnswerStore;
  log: Logger;
  gate: Gate;
  /** `next dev`: a changed route must not be hidden behind its previous answer. */
  disabled?: boolean;
  dev?: boolean;
}

export function isCacheablePath(pathname: string): boolean {
  return CACHEABLE.some((pattern) => pattern.test(pathname));
}

export function createAnswerDoor(deps: AnswerDoorDeps): Door {
  /** Keys whose stored answer has expired: when a request last went to ask Next, and whether Next has answered. */
  const asking = new Map<string, { since: number; answered: boolean }>();
  const isAsking = (key: string) => {
    const mark = asking.get(key);
    if (!mark) return false;
    const elapsed = deps.store.now() - mark.since;
    // A request Next never finishes must not keep the others on the stored answer for longer than this.
    return elapsed < ASK_INTERVAL_MS || (!mark.answered && elapsed < ASKING_TIMEOUT_MS);
  };
  return (req, res) => {
    if (deps.disabled || req.method !== "GET" || !req.url) return false;
    const [pathname] = splitTarget(req.url);
    if (!isCacheablePath(pathname)) return false;
    const key = req.url;
    const found = deps.store.lookup(key);
    if (!found || (!found.fresh && !isAsking(key))) {
      let done: (() => void) | undefined;
      if (found) {
        // Expired: this request asks Next (the route's cache revalidates meanwhile); the others get the stored
        // answer with max-age=0, as the route itself answers while it revalidates, until Next's answer is stored.
        // At most one request per ASK_INTERVAL_MS: a cached answer goes through Next without any I/O, so it is
        // done before the next request is even read, and "one at a time" alone sent every request to Next
        // (measured: 27-65 requests/s at expiry).
        const mark = { since: deps.store.now(), answered: false };
        asking.set(key, mark);
        done = () => {
          mark.answered = true;
        };
      }
      holdBack(deps, key, req, res, done);
      return false;
    }
    serveStored(deps, key, found.answer, pathname, req, res).catch((error: unknown) => {
      deps.log.error({ err: error }, "answer door: failed");
      if (!res.headersSent) {
        res.writeHead(500, { "Content-Type": "application/json", "Cache-Control": "no-store" });
      }
      res.end();
    });
    return true;
  };
}

async function serveStored(
  deps: AnswerDoorDeps,
  key: string,
  answer: StoredAnswer,
  pathname: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const gateRequest: GateRequest = {
    method: "GET",
    pathname,
    headers: toWebHeaders(req.headers),
    url: `${socketScheme(req)}://localhost${pathname}`,
  };
  const { gate } = deps;
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
    const response = refusalResponse(refusal);
    const headers: OutgoingHttpHeaders = { ...securityHeaders };
    response.headers.forEach((value, name) => (headers[name] = value));
    res.writeHead(response.status, headers);
    res.end(await response.text());
    return;
  }
  gate.log(gateRequest, context, "pass");
  const headers: OutgoingHttpHeaders = {
    ...answer.headers,
    ...securityHeaders,
    // Zero once expired (served while one request asks Next): what the route answers while it revalidates.
    "cache-control": `private, max-age=${Math.max(0, deps.store.remainingSeconds(answer))}`,
    etag: answer.etag,
  };
  if (ifNoneMatchHolds(req.headers["if-none-match"], answer.etag)) {
    delete headers["content-type"];
    res.writeHead(304, headers);
    res.end();
    return;
  }
  const coding = negotiateCoding(req.headers["accept-encoding"]);
  const body = await deps.store.encoded(key, answer, coding);
  if (coding !== "identity") headers["content-encoding"] = coding;
  headers["content-length"] = body.length;
  if (req.socket.destroyed) return;
  res.writeHead(200, headers);
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

type Chunk = string | Uint8Array;

/**
 * Holds back what Next writes for `req` (headers and body) until it ends, then stores a fresh answer and sends it
 * with its tag. Next's own compression (gzip when the client accepts it) has run by then: a gzipped answer is kept
 * as the stored answer's gzip variant and inflated once for the identity body. An answer growing past what the
 * store keeps goes out as it comes.
 */
function holdBack(
  deps: AnswerDoorDeps,
  key: string,
  req: IncomingMessage,
  res: ServerResponse,
  onHandled?: () => void,
): void {
  const chunks: Buffer[] = [];
  let held = 0;
  let released = false;
  const limit = deps.store.maxEntryBytes;

  const restore = () => {
    released = true;
    // Next's compression wrapped these after us; it has finished when we restore, so the prototype's methods serve.
    delete (res as Partial<ServerResponse>).write;
    delete (res as Partial<ServerResponse>).end;
    delete (res as Partial<ServerResponse>).writeHead;
  };
  const collect = (chunk: Chunk | undefined, encoding?: BufferEncoding) => {
    if (chunk === undefined || chunk === null) return;
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, encoding ?? "utf8") : Buffer.from(chunk);
    chunks.push(bytes);
    held += bytes.length;
  };
  /** Too large to keep: what was held goes out, and the rest flows straight through. */
  const passThrough = () => {
    restore();
    onHandled?.();
    res.removeHeader("content-length");
    res.write(Buffer.concat(chunks));
    chunks.length = 0;
  };

  res.writeHead = function writeHead(this: ServerResponse, status: number, ...rest: unknown[]) {
    res.statusCode = status;
    const headers = rest.find((r) => typeof r === "object" && r !== null) as
      OutgoingHttpHeaders | readonly string[] | undefined;
    if (Array.isArray(headers)) {
      for (let i = 0; i + 1 < headers.length; i += 2) res.setHeader(headers[i]!, headers[i + 1]!);
    } else if (headers) {
      for (const [name, value] of Object.entries(headers))
        if (value !== undefined) res.setHeader(name, value);
    }
    return res;
  } as ServerResponse["writeHead"];

  res.write = function write(chunk: Chunk, encodingOrCallback?: unknown, callback?: unknown) {
    if (released)
      return ServerResponse.prototype.write.call(res, chunk, encodingOrCallback as BufferEncoding);
    collect(
      chunk,
      typeof encodingOrCallback === "string" ? (encodingOrCallback as BufferEncoding) : undefined,
    );
    const done = typeof encodingOrCallback === "function" ? encodingOrCallback : callback;
    if (held > limit) passThrough();
    if (typeof done === "function") queueMicrotask(done as () => void);
    return true;
  } as ServerResponse["write"];

  res.end = function end(chunk?: unknown, encodingOrCallback?: unknown, callback?: unknown) {
    if (typeof chunk === "function") {
      callback = chunk;
      chunk = undefined;
    }
    if (released) {
      ServerResponse.prototype.end.call(res, chunk as Chunk, encodingOrCallback as BufferEncoding);
    } else {
      collect(
        chunk as Chunk | undefined,
        typeof encodingOrCallback === "string" ? (encodingOrCallback as BufferEncoding) : undefined,
      );
      restore();
      try {
        release(deps, key, res, Buffer.concat(chunks));
      } catch (error) {
        deps.log.error({ err: error }, "answer door: could not send a held answer");
        res.destroy();
      } finally {
        onHandled?.();
      }
    }
    const done = typeof encodingOrCallback === "function" ? encodingOrCallback : callback;
    if (typeof done === "function") res.once("finish", done as () => void);
    return res;
  } as ServerResponse["end"];
}

/** Sends a held answer (with its tag when it can be stored) and stores it when the route declared it fresh. */
function release(deps: AnswerDoorDeps, key: string, res: ServerResponse, bytes: Buffer): void {
  const cacheControl = String(res.getHeader("cache-control") ?? "");
  const coding = String(res.getHeader("content-encoding") ?? "identity").toLowerCase();
  const maxAge = Number(FRESH.exec(cacheControl)?.[1] ?? 0);
  const storable =
    res.statusCode === 200 &&
    maxAge > 0 &&
    /^application\/json\b/.test(String(res.getHeader("content-type") ?? "")) &&
    res.getHeader("set-cookie") === undefined &&
    (coding === "identity" || coding === "gzip");
  if (storable) {
    const body = coding === "gzip" ? gunzipSync(bytes) : bytes;
    const answer = deps.store.put(key, body, replayable(res), maxAge);
    if (coding === "gzip") deps.store.adopt(key, answer, "gzip", bytes);
    res.setHeader("etag", answer.etag);
  }
  res.removeHeader("transfer-encoding");
  res.setHeader("content-length", bytes.length);
  res.writeHead(res.statusCode);
  res.end(bytes);
}

function replayable(res: ServerResponse): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (value === undefined || PER_REQUEST_HEADERS.has(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(", ") : String(value);
  }
  // Stored answers go out in whichever coding each client accepts.
  if (!/(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(headers.vary ?? "")) {
    headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : "Accept-Encoding";
  }
  return headers;
}
