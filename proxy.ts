import { NextResponse, type NextRequest } from "next/server";
import { getLogger } from "@/server/log";
import { getAuthState, readCookie, readSession, SESSION_COOKIE } from "@/server/auth/session";
import { clientAddress, isHttps } from "@/server/security/client-address";
import { getSecurityConfig } from "@/server/security/config";
import { applySecurityHeaders, buildCsp, createNonce, requestIdFrom } from "@/server/security/headers";
import { CLIENT_HEADER, getLimits } from "@/server/security/limits";
import { countRateLimited } from "@/server/metrics/registry";
import { timingSafeEqual } from "node:crypto";

/**
 * Runs before every page, route handler, SSE stream and media path (Next 16 proxy, Node runtime): request id,
 * client address, per-client rate limit on /api, the session check, and the security headers with a fresh CSP
 * nonce (Next reads the nonce from the request's Content-Security-Policy header and stamps its own scripts).
 *
 * Authentication applies when the users file has a user or the server listens beyond loopback. Open without a
 * session: the login page and `/api/session`, `/api/health` (load balancers; it reveals only up/degraded), and
 * `/api/metrics` with the `CALLROOM_METRICS_TOKEN` bearer (Prometheus cannot log in).
 */

const PUBLIC_PATHS = new Set(["/login", "/api/session", "/api/health", "/icon.svg", "/favicon.ico"]);
/** Set here only; anything a client sends under these names is dropped. */
const INTERNAL_HEADERS = [CLIENT_HEADER, "x-callroom-user", "x-nonce", "x-request-id"];

function json(status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  return new NextResponse(JSON.stringify({ error: { code, message } }), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", ...headers },
  });
}

function hasMetricsToken(request: NextRequest, token: string | undefined): boolean {
  const header = request.headers.get("authorization");
  if (!token || !header?.startsWith("Bearer ")) return false;
  const given = Buffer.from(header.slice(7).trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export async function proxy(request: NextRequest): Promise<Response> {
  const config = getSecurityConfig();
  const { pathname, search } = request.nextUrl;
  const requestId = requestIdFrom(request.headers, config.trustProxyHops > 0);
  const https = isHttps(request.headers, request.url);
  const client = clientAddress(request.headers, config.trustProxyHops);
  const isApi = pathname === "/api" || pathname.startsWith("/api/");
  const nonce = createNonce();
  const csp = buildCsp(nonce, { dev: config.dev });
  const log = getLogger();
  const finish = (response: Response, outcome: string): Response => {
    applySecurityHeaders(response.headers, { csp, https, requestId });
    log.info({ reqId: requestId, method: request.method, path: pathname, client, outcome }, "request");
    return response;
  };

  if (isApi && pathname !== "/api/health") {
    const decision = await getLimits().api.consume(client);
    if (!decision.allowed) {
      countRateLimited("api");
      return finish(
        json(429, "rate_limited", "Too many requests; slow down and retry shortly.", {
          "Retry-After": String(decision.retryAfterSeconds),
        }),
        "rate_limited",
      );
    }
  }

  let user: string | null = null;
  const auth = getAuthState();
  if (auth.enabled) {
    user = await readSession(readCookie(request.headers.get("cookie"), SESSION_COOKIE), auth);
    const isPublic =
      PUBLIC_PATHS.has(pathname) ||
      (pathname === "/api/metrics" && hasMetricsToken(request, config.metricsToken));
    if (!isPublic && !user) {
      if (auth.misconfigured) {
        return finish(
          json(503, "auth_misconfigured", "Sign-in is not configured on this server (session secret)."),
          "auth_misconfigured",
        );
      }
      if (isApi) {
        return finish(json(401, "unauthenticated", "Sign in to use Callroom."), "unauthenticated");
      }
      const login = request.nextUrl.clone();
      login.pathname = "/login";
      login.search = "";
      if (pathname !== "/") login.searchParams.set("next", pathname + search);
      return finish(NextResponse.redirect(login, 307), "redirect_login");
    }
  }

  const headers = new Headers(request.headers);
  for (const name of INTERNAL_HEADERS) headers.delete(name);
  headers.set("x-request-id", requestId);
  headers.set("x-nonce", nonce);
  headers.set("content-security-policy", csp);
  headers.set(CLIENT_HEADER, client);
  if (user) headers.set("x-callroom-user", user);
  return finish(NextResponse.next({ request: { headers } }), "pass");
}

export const config = {
  // Everything but Next's hashed build assets (public, immutable, and served before routing anyway).
  matcher: ["/((?!_next/static|_next/image).*)"],
};
