// The client's address as Next's handlers will see it (scripts/serve.mjs calls this before Next gets the request).
//
// Next gives proxy.ts and route handlers no socket address: it sets `X-Forwarded-For` from the socket only when the
// request carries none, so a client could choose its own address and dodge per-client limits. Unless
// CALLROOM_TRUST_PROXY names trusted proxies, X-Forwarded-For is overwritten with the socket's address and client-sent
// X-Forwarded-Proto/Host/Port are dropped (Next then derives them from the socket). With trusted proxies the headers
// are left as the nearest proxy wrote them (server/security/client-address.ts picks the right entry).

/** CALLROOM_TRUST_PROXY as a hop count: `true`/`yes` = 1, a positive integer = itself, anything else = 0. */
export function trustedProxyHops(value) {
  const raw = String(value ?? "")
    .trim()
    .toLowerCase();
  if (raw === "true" || raw === "yes") return 1;
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : 0;
}

export function normaliseForwardedHeaders(req, hops) {
  if (hops > 0) return;
  req.headers["x-forwarded-for"] = req.socket.remoteAddress ?? "unknown";
  delete req.headers["x-forwarded-proto"];
  delete req.headers["x-forwarded-host"];
  delete req.headers["x-forwarded-port"];
}
