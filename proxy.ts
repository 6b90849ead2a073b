import { NextResponse, type NextRequest } from "next/server";
import { CLIENT_HEADER, refusalResponse, type GateRequest } from "@/server/security/gate";
import { applySecurityHeaders, buildCsp, createNonce } from "@/server/security/headers";
import { getRuntime } from "@/server/runtime";

/**
 * Runs before every page, route handler and media path (Next 16 proxy, Node runtime): the gate's checks
 * (server/security/gate.ts: request id, client address, `/api` rate limit, session), then the security headers with a
 * fresh CSP nonce (Next reads the nonce from the request's Content-Security-Policy header and stamps its own
 * scripts). The live stream normally never gets here: the custom server's stream door serves it with the same gate
 * (server/live/stream-door.ts); this still covers it when Next is started some other way.
 */

/** Set here only; anything a client sends under these names is dropped. */
const INTERNAL_HEADERS = [CLIENT_HEADER, "x-callroom-user", "x-nonce", "x-request-id"];

export async function proxy(request: NextRequest): Promise<Response> {
  const { pathname, search } = request.nextUrl;
  const gateRequest: GateRequest = {
    method: request.method,
    pathname,
    headers: request.headers,
    url: request.url,
  };
  const { gate, config } = getRuntime();
  const context = gate.context(gateRequest);
  const nonce = createNonce();
  const csp = buildCsp(nonce, { dev: config.server.dev });
  const finish = (response: Response, outcome: string): Response => {
    applySecurityHeaders(response.headers, { csp, https: context.https, requestId: context.requestId });
    gate.log(gateRequest, context, outcome);
    return response;
  };

  const verdict = await gate.check(gateRequest, context);
  if (verdict.kind === "deny") {
    return finish(refusalResponse(verdict), verdict.outcome);
  }
  if (verdict.kind === "login") {
    const login = request.nextUrl.clone();
    login.pathname = "/login";
    login.search = "";
    if (pathname !== "/") login.searchParams.set("next", pathname + search);
    return finish(NextResponse.redirect(login, 307), "redirect_login");
  }

  const headers = new Headers(request.headers);
  for (const name of INTERNAL_HEADERS) headers.delete(name);
  headers.set("x-request-id", context.requestId);
  headers.set("x-nonce", nonce);
  headers.set("content-security-policy", csp);
  headers.set(CLIENT_HEADER, context.client);
  if (verdict.user) headers.set("x-callroom-user", verdict.user);
  return finish(NextResponse.next({ request: { headers } }), "pass");
}

export const config = {
  // Everything but Next's hashed build assets (public, immutable, and served before routing anyway).
  matcher: ["/((?!_next/static|_next/image).*)"],
};
