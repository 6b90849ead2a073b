import "server-only";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Logger } from "pino";
import type { UsersFile } from "../auth/users";
import { decideAdmission, listensBeyondLoopback, type Listening } from "./exposure";
import { createHostCheck, type HostCheck, type HostRefusal } from "./host-check";

/**
 * Applies the exposure decision (server/security/exposure.ts) to every request of every HTTP server in the process,
 * before any handler runs: Node publishes each parsed request on the `http.server.request.start` diagnostics channel
 * synchronously, ahead of the server's `request` event. So the rule holds whether the process is our custom server
 * (scripts/serve.mjs), `next start`, or anything else that loads the app; nothing depends on a launcher or a preload.
 *
 * For each request it (1) refuses it when the decision says so: a 403 written straight to the socket, which is then
 * closed, so whatever handler runs next writes into nothing; (2) unless `CALLROOM_TRUST_PROXY` trusts proxies,
 * replaces `X-Forwarded-For` with the socket's address and drops client-sent `X-Forwarded-Proto/Host/Port`, since
 * Next only fills these in when absent and a client could otherwise choose its own address.
 *
 * Limit: under `next start`, requests that arrive while Next is still loading (before instrumentation.ts builds the
 * runtime that installs this guard) were published before anyone listened; the custom server builds the runtime
 * before it listens, so it has no such window.
 */

const CHANNEL = "http.server.request.start";

const REFUSAL_BODY = JSON.stringify({
  error: {
    code: "loopback_only",
    message:
      "This Callroom server has no users (or no session secret), so it only answers on the machine it runs on. " +
      "Add users and CALLROOM_SESSION_SECRET to open it to the network.",
  },
});
const REFUSAL = [
  "HTTP/1.1 403 Forbidden",
  "Content-Type: application/json",
  "Cache-Control: no-store",
  "X-Content-Type-Options: nosniff",
  "Connection: close",
  `Content-Length: ${Buffer.byteLength(REFUSAL_BODY)}`,
  "",
  REFUSAL_BODY,
].join("\r\n");

function rawRefusal(refusal: HostRefusal): string {
  const body = JSON.stringify({ error: { code: refusal.code, message: refusal.message } });
  return [
    `HTTP/1.1 ${refusal.status} ${refusal.status === 421 ? "Misdirected Request" : "Forbidden"}`,
    "Content-Type: application/json",
    "Cache-Control: no-store",
    "X-Content-Type-Options: nosniff",
    "Connection: close",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "",
    body,
  ].join("\r\n");
}

export interface ExposureGuardDeps {
  log: Pick<Logger, "warn">;
  /** CALLROOM_TRUST_PROXY as a hop count (0 = trust no forwarding header). */
  trustProxyHops: () => number;
  /** Users exist and the session secret is usable: every client can be asked to sign in. */
  accessControlReady: () => boolean;
  /** Without accounts, the names a request may address us by (DNS rebinding: server/security/host-check.ts). */
  hostCheck?: () => HostCheck;
}

export interface ExposureGuard {
  /** Decides for one request; false when it was refused (its socket is being closed). */
  admit(req: IncomingMessage, server: Pick<Server, "address">): boolean;
  /** Subscribes `admit` to every HTTP request of the process; returns the unsubscribe. */
  install(): () => void;
}

interface RequestStart {
  request: IncomingMessage;
  response: ServerResponse;
  socket: Socket;
  server: Server;
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
};

export function createExposureGuard(deps: ExposureGuardDeps): ExposureGuard {
  // The listening address does not change while a server listens: one getsockname per server, not per request.
  const listening = new WeakMap<object, Listening>();
  const warned = new WeakSet<object>();

  const listeningOf = (server: Pick<Server, "address">): Listening => {
    let address = listening.get(server);
    if (address === undefined) {
      address = server.address();
      if (address !== null) listening.set(server, address);
    }
    return address;
  };

  const admit: ExposureGuard["admit"] = (req, server) => {
    const address = listeningOf(server);
    const verdict = decideAdmission(
      {
        listening: address,
        remoteAddress: req.socket.remoteAddress,
        forwarded: {
          xForwardedFor: header(req, "x-forwarded-for"),
          forwarded: header(req, "forwarded"),
          xRealIp: header(req, "x-real-ip"),
        },
      },
      deps.accessControlReady,
    );
    if (!verdict.admit) {
      if (!warned.has(server)) {
        warned.add(server);
        deps.log.warn(
          { client: verdict.client, reason: verdict.reason, beyondLoopback: listensBeyondLoopback(address) },
          "exposure: refusing clients beyond this machine: no users or no session secret",
        );
      }
      req.socket.end(REFUSAL);
      req.socket.destroySoon();
      return false;
    }
    if (deps.hostCheck && !deps.accessControlReady()) {
      const refusal = deps.hostCheck().refusal({
        host: header(req, "host") ?? null,
        origin: header(req, "origin") ?? null,
      });
      if (refusal) {
        req.socket.end(rawRefusal(refusal));
        req.socket.destroySoon();
        return false;
      }
    }
    if (deps.trustProxyHops() === 0) {
      req.headers["x-forwarded-for"] = req.socket.remoteAddress ?? "unknown";
      delete req.headers["x-forwarded-proto"];
      delete req.headers["x-forwarded-host"];
      delete req.headers["x-forwarded-port"];
    }
    return true;
  };

  return {
    admit,
    install() {
      const onRequest = (message: unknown) => {
        const { request, server } = message as RequestStart;
        admit(request, server);
      };
      subscribe(CHANNEL, onRequest);
      return () => unsubscribe(CHANNEL, onRequest);
    },
  };
}

/** The guard's view of the security settings (server/config.ts) and of the users file. */
export function exposureSettings(
  security: { trustProxyHops: number; sessionSecret: string | undefined },
  publicUrl: string | undefined,
  users: UsersFile,
): Omit<ExposureGuardDeps, "log"> {
  const hostCheck = createHostCheck(publicUrl);
  return {
    hostCheck: () => hostCheck,
    trustProxyHops: () => security.trustProxyHops,
    accessControlReady: () => security.sessionSecret !== undefined && users.read().size > 0,
  };
}
