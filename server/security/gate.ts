import "server-only";
import { timingSafeEqual } from "node:crypto";
import { getAuthState, readCookie, readSessionUser, SESSION_COOKIE } from "../auth/session";
import { getLogger } from "../log";
import type { Metrics } from "../metrics/registry";
import { clientAddress, isHttps } from "./client-address";
import { getSecurityConfig } from "./config";
import { requestIdFrom } from "./headers";
import { hostCheckFor } from "./host-check";
import { getLimits } from "./limits";

/**
 * The checks every request passes before it reaches a page, route handler, SSE stream or media path: request id,
 * client address, the per-client `/api` rate limit and the session. One implementation for both doors into the
 * process: Next's proxy (proxy.ts) and the live stream's Node-level door (server/live/stream-door.ts),
 * which serves `/api/stream` ahead of Next and must refuse exactly what the proxy refuses.
 *
 * Authentication applies when the users file has a user or the server listens beyond loopback. Open without a
 * session: the login page and `/api/session`, `/api/health` (load balancers; it reveals only up/degraded), and
 * `/api/metrics` with the `CALLROOM_METRICS_TOKEN` bearer (Prometheus cannot log in).
 */

const FEED_PATH = /^\/api\/feeds\/[A-Za-z0-9_-]{43}\.ics$/;
const PUBLIC_PATHS = new Set(["/login", "/api/session", "/api/health", "/icon.svg", "/favicon.ico"]);

export interface GateRequest {
  method: string;
  pathname: string;
  headers: Headers;
  /** Absolute URL as the server saw it (for the scheme when no trusted proxy says otherwise). */
  url: string;
}

export interface GateContext {
  requestId: string;
  client: string;
  https: boolean;
  isApi: boolean;
}

export type GateVerdict =
  /** `user`: the signed-in user's key (their stable id), which proxy.ts passes on as `x-callroom-user`. */
  | { kind: "pass"; user: string | null }
  | {
      kind: "deny";
      status: number;
      code: string;
      message: string;
      headers?: Record<string, string>;
      outcome: string;
    }
  /** A page asked for without a session: the caller redirects to the login form. */
  | { kind: "login" };

export type GateRefusal = Extract<GateVerdict, { kind: "deny" }>;

/** The error code doubles as the access log's outcome. */
export function deny(
  status: number,
  code: string,
  message: string,
  headers?: Record<string, string>,
): GateRefusal {
  return { kind: "deny", status, code, message, headers, outcome: code };
}

/** A refusal as our error body `{ error: { code, message } }`, never cached. */
export function refusalResponse(refusal: GateRefusal): Response {
  return new Response(JSON.stringify({ error: { code: refusal.code, message: refusal.message } }), {
    status: refusal.status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", ...refusal.headers },
  });
}

function hasMetricsToken(headers: Headers, token: string | undefined): boolean {
  const header = headers.get("authorization");
  if (!token || !header?.startsWith("Bearer ")) return false;
  const given = Buffer.from(header.slice(7).trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function gateContext(request: GateRequest): GateContext {
  const config = getSecurityConfig();
  return {
    requestId: requestIdFrom(request.headers, config.trustProxyHops > 0),
    client: clientAddress(request.headers, config.trustProxyHops),
    https: isHttps(request.headers, request.url),
    isApi: request.pathname === "/api" || request.pathname.startsWith("/api/"),
  };
}

export async function checkRequest(
  request: GateRequest,
  context: GateContext,
  metrics: Pick<Metrics, "countRateLimited">,
): Promise<GateVerdict> {
  const { pathname } = request;
  if (context.isApi && pathname !== "/api/health") {
    const decision = await getLimits().api.consume(context.client);
    if (!decision.allowed) {
      metrics.countRateLimited("api");
      return deny(429, "rate_limited", "Too many requests; slow down and retry shortly.", {
        "Retry-After": String(decision.retryAfterSeconds),
      });
    }
  }

  const auth = getAuthState();
  if (!auth.enabled) {
    // Open instance: only this machine's names (DNS rebinding, server/security/host-check.ts).
    const refusal = hostCheckFor(getSecurityConfig().publicUrl).refusal({
      host: request.headers.get("host") ?? new URL(request.url).host,
      origin: request.headers.get("origin"),
    });
    if (refusal) return deny(refusal.status, refusal.code, refusal.message);
    return { kind: "pass", user: null };
  }
  // The user's key, not their name: workspace rows belong to the stable id (server/auth/users.ts).
  const user = await readSessionUser(readCookie(request.headers.get("cookie"), SESSION_COOKIE), auth);
  if (user) return { kind: "pass", user: user.key };
  const isPublic =
    PUBLIC_PATHS.has(pathname) ||
    // A calendar feed is fetched by calendar applications, which cannot sign in: its secret token is its access.
    FEED_PATH.test(pathname) ||
    // `npm run import` cannot sign in: the route checks its bearer, the token from the database folder's lock.
    (pathname === "/api/archive/import" &&
      request.headers.get("authorization")?.startsWith("Bearer ") === true) ||
    (pathname === "/api/metrics" && hasMetricsToken(request.headers, getSecurityConfig().metricsToken));
  if (isPublic) return { kind: "pass", user: null };
  if (auth.misconfigured) {
    return deny(503, "auth_misconfigured", "Sign-in is not configured on this server (session secret).");
  }
  if (context.isApi) return deny(401, "unauthenticated", "Sign in to use Callroom.");
  return { kind: "login" };
}

/**
 * A path as the access log may keep it: a calendar feed's path is its secret (the token is the feed's only
 * credential), so the token is replaced.
 */
export function loggablePath(pathname: string): string {
  return pathname.startsWith("/api/feeds/")
    ? pathname.replace(/^\/api\/feeds\/[^/]+?(\.ics)?$/, "/api/feeds/[token]$1")
    : pathname;
}

/** The one access-log line per request; the request id ties it to the route's own lines. */
export function logRequest(request: GateRequest, context: GateContext, outcome: string): void {
  getLogger().info(
    {
      reqId: context.requestId,
      method: request.method,
      path: loggablePath(request.pathname),
      client: context.client,
      outcome,
    },
    "request",
  );
}
