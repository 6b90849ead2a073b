import "server-only";

/**
 * The client's address, for per-client limits. Next 16 exposes no socket address to proxy.ts or route handlers: it
 * only fills `X-Forwarded-For` with the socket address *when the request has none* (base-server), so a header sent
 * by the client would survive. The runtime's exposure guard (server/security/exposure-guard.ts) therefore
 * sets `X-Forwarded-For` to the socket's address (and drops a client-sent `X-Forwarded-Proto`) on every HTTP
 * server of the process, before any handler runs, unless `CALLROOM_TRUST_PROXY` names a number of trusted proxies. With `n` trusted
 * proxies, the client is the n-th entry from the right (each proxy appends the address it saw).
 */
export function clientAddress(headers: Headers, trustProxyHops: number): string {
  const entries = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const hops = Math.max(1, trustProxyHops);
  const picked = entries[Math.max(0, entries.length - hops)];
  return normalizeAddress(picked ?? "unknown");
}

/** `::ffff:1.2.3.4` → `1.2.3.4`; IPv6 reduced to its /64 (one host gets a whole /64, so a finer key is evadable). */
export function normalizeAddress(address: string): string {
  let a = address.trim().toLowerCase().slice(0, 64);
  if (a.startsWith("[")) a = a.slice(1, a.indexOf("]") > 0 ? a.indexOf("]") : undefined);
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(a);
  if (mapped) return mapped[1]!;
  if (a.includes(":") && !a.includes(".")) {
    const groups = expandIpv6(a);
    if (groups) return `${groups.slice(0, 4).join(":")}::/64`;
  }
  return /^[0-9a-z.:_-]+$/.test(a) ? a : "invalid";
}

function expandIpv6(a: string): string[] | null {
  const [head, tail, extra] = a.split("::");
  if (extra !== undefined) return null;
  const h = head ? head.split(":") : [];
  const t = tail !== undefined && tail ? tail.split(":") : [];
  const missing = 8 - h.length - t.length;
  if (tail === undefined && h.length !== 8) return null;
  if (missing < 0) return null;
  const groups = [...h, ...Array.from({ length: tail === undefined ? 0 : missing }, () => "0"), ...t];
  if (groups.length !== 8 || groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => g.replace(/^0+(?=.)/, ""));
}

/** Whether the request reached us over HTTPS (x-forwarded-proto is set from the socket unless a proxy is trusted). */
export function isHttps(headers: Headers, url: string): boolean {
  const proto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  if (proto) return proto === "https";
  return url.startsWith("https:");
}
