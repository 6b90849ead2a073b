import "server-only";
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";

/** A Node request's headers as web `Headers`, which the gate reads (server/security/gate.ts). */
export function toWebHeaders(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined) continue;
    try {
      headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    } catch {
      // A value `Headers` rejects (it is stricter than Node's parser) is one we ignore, as Next would drop it.
    }
  }
  return headers;
}

/** The scheme of the connection itself (forwarded headers are the gate's business). */
export function socketScheme(req: IncomingMessage): "http" | "https" {
  return (req.socket as Partial<TLSSocket>).encrypted ? "https" : "http";
}

/** Path and query of a request target (`/a/b?x=1` → [`/a/b`, `x=1`]). */
export function splitTarget(url: string): [pathname: string, query: string] {
  const at = url.indexOf("?");
  return at === -1 ? [url, ""] : [url.slice(0, at), url.slice(at + 1)];
}
