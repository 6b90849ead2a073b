import "server-only";
import { getAuthState } from "../auth/session";
import { AppError } from "../http/errors";
import { getSecurityConfig } from "../security/config";

/**
 * Who a workspace request belongs to. The proxy (proxy.ts) has already checked the session and passes the user on in
 * `x-callroom-user` (it drops any such header a client sends); with no users configured the dashboard is open and
 * everything belongs to the one local user.
 */

export const LOCAL_USER = "local";

export function requestUser(request: Request): string {
  const user = request.headers.get("x-callroom-user");
  if (user) return user;
  if (!getAuthState().enabled) return LOCAL_USER;
  throw new AppError(401, "unauthenticated", "Sign in to use Callroom.");
}

/**
 * CSRF: a mutation must come from our own pages. Browsers send `Origin` (and `Sec-Fetch-Site`) on every
 * cross-origin POST, PATCH and DELETE, so a request that carries either must name our origin; a request with
 * neither comes from a script or `curl`, which a malicious page cannot make a browser send. Bodies must also be JSON,
 * which a cross-site HTML form cannot produce without a CORS preflight we never answer.
 */
export function assertSameOrigin(request: Request): void {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin" && site !== "none")
    throw new AppError(403, "cross_origin", "This change must come from Callroom's own pages.");
  const origin = request.headers.get("origin");
  if (origin === null) return;
  const forwarded = getSecurityConfig().trustProxyHops > 0 ? request.headers.get("x-forwarded-host") : null;
  const host = forwarded ?? request.headers.get("host") ?? new URL(request.url).host;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw new AppError(403, "cross_origin", "This change must come from Callroom's own pages.");
  }
  if (originHost !== host)
    throw new AppError(403, "cross_origin", "This change must come from Callroom's own pages.");
}

/** Reads a JSON body (at most `maxBytes`); anything else is a 400 before any validation. */
export async function readJsonBody(request: Request, maxBytes = 64_000): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type))
    throw new AppError(415, "unsupported_media_type", "Send the body as application/json.");
  const text = await request.text();
  if (Buffer.byteLength(text) > maxBytes)
    throw new AppError(413, "payload_too_large", `The body must be at most ${maxBytes} bytes.`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError(400, "invalid_parameter", "The body is not valid JSON.");
  }
}
