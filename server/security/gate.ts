import "server-only";
import { timingSafeEqual } from "node:crypto";
import { ERROR_CATALOG, type ErrorCode } from "@/lib/schemas/errors";
import { readCookie, SESSION_COOKIE, type Auth } from "../auth/session";
import type { StructuredLog } from "../log";
import { clientAddress, isHttps } from "./client-address";
import { requestIdFrom } from "./headers";
import { createHostCheck } from "./host-check";
import type { Limits } from "./limits";

/**
 * The checks every request passes before it reaches a page, route handler, SSE stream or media path: request id,
 * client address, the per-client `/api` rate limit and the session. One implementation for every door into the
 * process: Next's proxy (proxy.ts) and the Node-level doors (server/http/door.ts), which serve some requests ahead
 * of Next and must refuse exactly what the proxy refuses. Built once by the composition root.
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
export function deny(code: ErrorCode, message: string, headers?: Record<string, string>): GateRefusal {
  return { kind: "deny", status: ERROR_CATALOG[code].status, code, message, headers, outcome: code };
}

/** "login" is for pages: the doors that serve API paths answer 401 instead, as the proxy does there. */
export function apiRefusal(verdict: Exclude<GateVerdict, { kind: "pass" }>): GateRefusal {
  return verdict.kind === "deny" ? verdict : deny("unauthenticated", "Sign in to use Callroom.");
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

/** Header proxy.ts sets to the address it resolved (after dropping any client-sent value). */
export const CLIENT_HEADER = "x-callroom-client";

export interface Gate {
  context(request: GateRequest): GateContext;
  check(request: GateRequest, context: GateContext): Promise<GateVerdict>;
  /** The one access-log line per request; the request id ties it to the route's own lines. */
  log(request: GateRequest, context: GateContext, outcome: string): void;
  /** The client of a request that came through the proxy (route handlers): the address the proxy resolved. */
  client(request: Request): string;
}

export interface GateDeps {
  auth: Auth;
  limits: Pick<Limits, "api">;
  security: { trustProxyHops: number; metricsToken: string | undefined };
  /** `CALLROOM_PUBLIC_URL`: its host is accepted beside loopback's names on an open instance. */
  publicUrl: string | undefined;
  log: Pick<StructuredLog, "info">;
  /** A request refused by the `/api` rate limit (the rate-limit metric). */
  onRateLimited: () => void;
}

export function createGate(deps: GateDeps): Gate {
  const { trustProxyHops, metricsToken } = deps.security;
  const hostCheck = createHostCheck(deps.publicUrl);
  return {
    context(request) {
      return {
        requestId: requestIdFrom(request.headers, trustProxyHops > 0),
        client: clientAddress(request.headers, trustProxyHops),
        https: isHttps(request.headers, request.url),
        isApi: request.pathname === "/api" || request.pathname.startsWith("/api/"),
      };
    },

    async check(request, context) {
      const { pathname } = request;
      if (context.isApi && pathname !== "/api/health") {
        const decision = await deps.limits.api.consume(context.client);
        if (!decision.allowed) {
          deps.onRateLimited();
          return deny("rate_limited", "Too many requests; slow down and retry shortly.", {
            "Retry-After": String(decision.retryAfterSeconds),
          });
        }
      }

      const auth = deps.auth.state();
      if (!auth.enabled) {
        // Open instance: only this machine's names (DNS rebinding, server/security/host-check.ts).
        const refusal = hostCheck.refusal({
          host: request.headers.get("host") ?? new URL(request.url).host,
          origin: request.headers.get("origin"),
        });
        if (refusal) return deny(refusal.code, refusal.message);
        return { kind: "pass", user: null };
      }
      // The user's key, not their name: workspace rows belong to the stable id (server/auth/users.ts).
      const user = await deps.auth.readSessionUser(
        readCookie(request.headers.get("cookie"), SESSION_COOKIE),
        auth,
      );
      if (user) return { kind: "pass", user: user.key };
      const isPublic =
        PUBLIC_PATHS.has(pathname) ||
        // A calendar feed is fetched by calendar applications, which cannot sign in: its secret token is its access.
        FEED_PATH.test(pathname) ||
        // `npm run import` cannot sign in: the route checks its bearer, the token from the database folder's lock.
        (pathname === "/api/archive/import" &&
          request.headers.get("authorization")?.startsWith("Bearer ") === true) ||
        (pathname === "/api/metrics" && hasMetricsToken(request.headers, metricsToken));
      if (isPublic) return { kind: "pass", user: null };
      if (auth.misconfigured) {
        return deny("auth_misconfigured", "Sign-in is not configured on this server (session secret).");
      }
      if (context.isApi) return deny("unauthenticated", "Sign in to use Callroom.");
      return { kind: "login" };
    },

    log(request, context, outcome) {
      deps.log.info(
        {
          reqId: context.requestId,
          method: request.method,
          path: loggablePath(request.pathname),
          client: context.client,
          outcome,
        },
        "request",
      );
    },

    client(request) {
      return request.headers.get(CLIENT_HEADER) ?? clientAddress(request.headers, trustProxyHops);
    },
  };
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
