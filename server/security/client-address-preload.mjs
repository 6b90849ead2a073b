// Preloaded into the Next server process by scripts/launch.mjs (`node --import …`).
//
// Next 16 gives proxy.ts and route handlers no socket address: it sets `X-Forwarded-For` from the socket only when
// the request carries none, so a client could choose its own address and dodge per-client limits. Unless
// CALLROOM_TRUST_PROXY names trusted proxies, this overwrites X-Forwarded-For with the socket's address and drops a
// client-sent X-Forwarded-Proto/Host (Next then derives them from the socket). With trusted proxies the headers are
// left as the nearest proxy wrote them (server/security/client-address.ts picks the right entry).
//
// It is also the door for the live stream's fast path: once the app has registered a Node-level handler
// (server/relay/stream-fast-path.ts, from instrumentation.ts), each request is offered to it first, after the
// address rewrite; it takes `GET /api/stream` and declines everything else, which Next then serves as usual.
import http from "node:http";

const raw = String(process.env.CALLROOM_TRUST_PROXY ?? "")
  .trim()
  .toLowerCase();
const hops =
  raw === "true" || raw === "yes" ? 1 : Number.isInteger(Number(raw)) && Number(raw) > 0 ? Number(raw) : 0;
const originalEmit = http.Server.prototype.emit;

http.Server.prototype.emit = function emit(event, req, ...rest) {
  if (event === "request" && hops === 0 && req && req.headers && req.socket) {
    req.headers["x-forwarded-for"] = req.socket.remoteAddress ?? "unknown";
    delete req.headers["x-forwarded-proto"];
    delete req.headers["x-forwarded-host"];
    delete req.headers["x-forwarded-port"];
  }
  if (event === "request") {
    const handler = globalThis[Symbol.for("callroom.nodeRequestHandler")];
    if (typeof handler === "function" && handler(req, rest[0])) return true;
  }
  return originalEmit.call(this, event, req, ...rest);
};
