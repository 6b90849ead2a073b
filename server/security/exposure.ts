import "server-only";
import type { AddressInfo } from "node:net";
import { isIP } from "node:net";

/**
 * Who may reach an instance without accounts (issue 13, item 5). `HOST` says where the launcher asked the server to
 * listen, but `next start` ignores it (and listens on every interface), so the decision is taken per request from
 * what the sockets say: the address the server really listens on and the address the request came from.
 *
 * Without users and a session secret (nobody could sign in), only clients on this machine are admitted, however the
 * server was started. A client is on this machine when the socket's peer is a loopback address and no forwarding
 * header names anyone else: forwarding headers are never believed to *admit* a client (that takes
 * `CALLROOM_TRUST_PROXY`, and then only the entry the trusted proxies wrote), but a header naming an outside address
 * is enough to refuse, since a reverse proxy on this machine relaying the outside world looks like loopback otherwise.
 */

export type Listening = AddressInfo | string | null;

export type Admission =
  { admit: true } | { admit: false; reason: "remote_peer" | "forwarded_client"; client: string };

export interface AdmissionInput {
  /** `server.address()`: an AddressInfo for TCP, the path for a Unix socket, null when not listening. */
  listening: Listening;
  /** `socket.remoteAddress` (undefined for a Unix socket, or once the socket is gone). */
  remoteAddress: string | undefined;
  /** The request's forwarding headers, as received. */
  forwarded: { xForwardedFor?: string; forwarded?: string; xRealIp?: string };
}

/** 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
export function isLoopbackAddress(address: string | undefined | null): boolean {
  if (!address) return false;
  let a = address.trim().toLowerCase();
  if (a.startsWith("[") && a.endsWith("]")) a = a.slice(1, -1);
  if (a.startsWith("::ffff:")) a = a.slice(7);
  if (a === "::1" || a === "0:0:0:0:0:0:0:1") return true;
  return isIP(a) === 4 && a.startsWith("127.");
}

/**
 * True when the server can be reached from other machines: bound to a non-loopback address, or to every interface
 * (`::`, `0.0.0.0`). A Unix socket is reachable from this machine only.
 */
export function listensBeyondLoopback(listening: Listening): boolean {
  if (listening === null) return false;
  if (typeof listening === "string") return false;
  return !isLoopbackAddress(listening.address);
}

/** Every address the forwarding headers name (`unknown` and obfuscated `Forwarded` identifiers count as outside). */
export function forwardedAddresses(forwarded: AdmissionInput["forwarded"]): string[] {
  const addresses: string[] = [];
  for (const entry of (forwarded.xForwardedFor ?? "").split(",")) {
    if (entry.trim()) addresses.push(stripPort(entry.trim()));
  }
  if (forwarded.xRealIp?.trim()) addresses.push(stripPort(forwarded.xRealIp.trim()));
  for (const match of (forwarded.forwarded ?? "").matchAll(/for\s*=\s*("?)([^";,]+)\1/gi)) {
    addresses.push(stripPort(match[2]!.trim()));
  }
  return addresses;
}

function stripPort(address: string): string {
  if (address.startsWith("[")) return address.slice(0, address.indexOf("]") + 1) || address;
  // One colon means host:port (IPv4 or a name); IPv6 has several.
  return address.split(":").length === 2 ? address.slice(0, address.indexOf(":")) : address;
}

/**
 * Whether a request may proceed when no one could sign in (`accessControlReady` false). With accounts ready every
 * request proceeds to the gate (server/security/gate.ts), which asks for a session; `accessControlReady` is only
 * consulted for requests that do not come from this machine.
 */
export function decideAdmission(input: AdmissionInput, accessControlReady: () => boolean): Admission {
  const local = typeof input.listening === "string" || isLoopbackAddress(input.remoteAddress);
  if (!local) {
    if (accessControlReady()) return { admit: true };
    return { admit: false, reason: "remote_peer", client: input.remoteAddress ?? "unknown" };
  }
  const outside = forwardedAddresses(input.forwarded).find((a) => !isLoopbackAddress(a));
  if (outside === undefined || accessControlReady()) return { admit: true };
  return { admit: false, reason: "forwarded_client", client: outside };
}
