import "server-only";
import { AppError } from "../errors";

/**
 * CSRF guard for every state-changing request (sign-in and out, the workspace API): a mutation must come from our own
 * pages. Browsers send `Origin` (and `Sec-Fetch-Site`) on every cross-origin POST, PATCH and DELETE, so a request that
 * carries either must name our origin; a request with neither comes from a script or `curl`, which a malicious page
 * cannot make a browser send (and which cannot ride a victim's cookies anyway). `X-Forwarded-Host` names our host
 * only behind a trusted proxy (CALLROOM_TRUST_PROXY).
 */
export function assertSameOrigin(request: Request, trustProxyHops: number): void {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin" && site !== "none") throw crossOrigin();
  const origin = request.headers.get("origin");
  if (origin === null) return;
  const forwarded = trustProxyHops > 0 ? request.headers.get("x-forwarded-host") : null;
  const host = forwarded ?? request.headers.get("host") ?? new URL(request.url).host;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    // "null" (a sandboxed or privacy-sensitive context) or garbage.
    throw crossOrigin();
  }
  if (originHost !== host) throw crossOrigin();
}

function crossOrigin(): AppError {
  return new AppError("cross_origin", "Cross-site requests are not accepted here; use Callroom's own pages.");
}
