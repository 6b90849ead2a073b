import "server-only";

/**
 * Security headers for every response the proxy lets through.
 *
 * CSP: scripts only from us and from nonce-bearing tags ('strict-dynamic' lets Next's nonce'd loader pull its
 * chunks); styles allow 'unsafe-inline' because Recharts and React write `style` attributes and Next inlines
 * critical CSS; media and workers allow `blob:` for hls.js (MediaSource object URLs, its transmuxing worker), and
 * media also `data:` because hls.js gives its ID3 metadata text track an empty `data:,WEBVTT` source (a data URL
 * in a media element cannot run script).
 * `next dev` needs 'unsafe-eval' (React's debugging and Fast Refresh); production never gets it.
 */
export function buildCsp(nonce: string, options: { dev: boolean }): string {
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "media-src 'self' blob: data:",
    "worker-src 'self' blob:",
    "connect-src 'self'",
    "manifest-src 'self'",
    "frame-ancestors 'none'",
    "frame-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ];
  return directives.join("; ");
}

/**
 * Features the dashboard never uses, switched off. Only features the browsers we support recognise are listed:
 * Chromium logs a console warning on every page for each one it does not know ("bluetooth" was one).
 */
export const PERMISSIONS_POLICY = [
  "camera=()",
  "microphone=()",
  "geolocation=()",
  "payment=()",
  "usb=()",
  "serial=()",
  "interest-cohort=()",
  "browsing-topics=()",
  // Audio playback in the call room; fullscreen for charts.
  "autoplay=(self)",
  "fullscreen=(self)",
].join(", ");

export function applySecurityHeaders(
  headers: Headers,
  options: { csp?: string; https: boolean; requestId: string },
): void {
  if (options.csp) headers.set("Content-Security-Policy", options.csp);
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("Permissions-Policy", PERMISSIONS_POLICY);
  headers.set("X-Frame-Options", "DENY");
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("X-Request-Id", options.requestId);
  // Only over HTTPS: sent on plain HTTP it would be ignored, and on a loopback dev box it would pin localhost.
  if (options.https) headers.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
}

/** 128 bits, base64: unguessable per response. */
export function createNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Buffer.from(bytes).toString("base64");
}

/** A client-chosen request id is kept only when it looks like one (it ends up in our logs). */
export function requestIdFrom(headers: Headers, trusted: boolean): string {
  const incoming = headers.get("x-request-id");
  if (trusted && incoming && /^[A-Za-z0-9._:-]{8,128}$/.test(incoming)) return incoming;
  return crypto.randomUUID();
}
