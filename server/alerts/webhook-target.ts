import "server-only";
import { lookup as dnsLookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { AppError } from "../errors";

/**
 * Where a webhook may point. A user-supplied URL that the server then POSTs to is a server-side request forgery
 * risk, so:
 *
 * - https only, on port 443 or 8443 (the ports webhook receivers use), no credentials in the URL;
 * - no private, loopback, link-local, carrier-grade NAT, multicast or otherwise non-public address, whether the
 *   URL names it literally or its host name resolves to it (checked when the rule is saved, and again at every
 *   delivery on the address actually connected to, so a name that later resolves inwards is still refused). The
 *   IPv6 forms that carry an IPv4 address inside (IPv4-compatible `::a.b.c.d`, mapped `::ffff:…`, translated
 *   `::ffff:0:…`, 6to4 `2002::/16`, Teredo `2001::/32`, NAT64 `64:ff9b::/96` and `64:ff9b:1::/48`) and the
 *   deprecated site-local `fec0::/10` are refused whole: decoding each to judge the IPv4 inside is more code to get
 *   wrong than any public webhook needs;
 * - unless `CALLROOM_WEBHOOK_ALLOWLIST` names the host (`host`) or the host and port (`host:port`): an allowlisted
 *   target may be private, plain http and on any port (an in-house receiver, the tests' local one).
 */

export const WEBHOOK_PORTS: ReadonlySet<number> = new Set([443, 8443]);

// Two lists: a BlockList also judges an IPv4 address by IPv6 rules in its mapped form (::ffff:a.b.c.d), which the
// IPv6 list refuses whole.
const blocked = new BlockList();
const blocked6 = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  blocked.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  // Unspecified, loopback and IPv4-compatible (::a.b.c.d, e.g. ::7f00:1).
  ["::", 96],
  ["::ffff:0:0", 96],
  ["::ffff:0:0:0", 96],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 32],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const)
  blocked6.addSubnet(net, prefix, "ipv6");

/** True for an address a webhook must not reach (IPv4-mapped IPv6 is judged as the IPv4 it maps). */
export function isNonPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return blocked.check(mapped[1]!, "ipv4");
  const family = isIP(bare);
  if (family === 4) return blocked.check(bare, "ipv4");
  if (family === 6) return blocked6.check(bare, "ipv6");
  return true;
}

export interface WebhookAllowlist {
  allows(host: string, port: number): boolean;
}

/** Parses `CALLROOM_WEBHOOK_ALLOWLIST`: comma-separated `host` (any port) or `host:port` entries. */
export function parseWebhookAllowlist(raw: string | undefined): WebhookAllowlist {
  const hosts = new Set<string>();
  const hostPorts = new Set<string>();
  for (const item of (raw ?? "").split(",")) {
    const entry = item.trim().toLowerCase();
    if (!entry) continue;
    const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(entry);
    if (m) hostPorts.add(`${stripBrackets(m[1]!)}:${Number(m[2])}`);
    else hosts.add(stripBrackets(entry));
  }
  return {
    allows(host, port) {
      const h = stripBrackets(host.toLowerCase());
      return hosts.has(h) || hostPorts.has(`${h}:${port}`);
    },
  };
}

function stripBrackets(host: string): string {
  return host.replace(/^\[|\]$/g, "");
}

export interface WebhookTarget {
  url: URL;
  host: string;
  port: number;
  allowlisted: boolean;
}

const refuse = (message: string) => new AppError("invalid_parameter", `webhookUrl ${message}`);

/** Syntax and literal-address checks, without DNS: what can be said of the URL alone. */
export function checkWebhookUrl(raw: string, allowlist: WebhookAllowlist): WebhookTarget {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse("must be an absolute https URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw refuse("must be an https URL");
  if (url.username || url.password) throw refuse("must not carry credentials");
  const host = stripBrackets(url.hostname.toLowerCase());
  const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  const allowlisted = allowlist.allows(host, port);
  if (allowlisted) return { url, host, port, allowlisted };
  if (url.protocol !== "https:") throw refuse("must be an https URL");
  if (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host.endsWith(".local") ||
    host.endsWith(".internal")
  )
    throw refuse("must not point to a local or private host");
  if (isIP(host) && isNonPublicAddress(host)) throw refuse("must not point to a private or loopback address");
  if (!WEBHOOK_PORTS.has(port)) throw refuse(`must use port 443 or 8443 (not ${port})`);
  return { url, host, port, allowlisted };
}

export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * The full check a rule gets when it is saved: `checkWebhookUrl`, then every address the name resolves to must be
 * public. A name that does not resolve is refused too, since nothing could be delivered to it.
 */
export async function validateWebhookUrl(
  raw: string,
  allowlist: WebhookAllowlist,
  resolve: Resolver = systemResolver,
): Promise<WebhookTarget> {
  const target = checkWebhookUrl(raw, allowlist);
  if (target.allowlisted || isIP(target.host)) return target;
  let addresses: string[];
  try {
    addresses = await resolve(target.host);
  } catch {
    throw refuse(`names a host that does not resolve (${target.host})`);
  }
  if (addresses.length === 0) throw refuse(`names a host that does not resolve (${target.host})`);
  if (addresses.some(isNonPublicAddress)) throw refuse("resolves to a private or loopback address");
  return target;
}
