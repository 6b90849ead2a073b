import "server-only";
import { isLoopbackAddress } from "./exposure";

/**
 * DNS rebinding on an open instance (no users: nobody signs in, so the browser's cookie is no protection). A page on
 * `evil.example` whose name is made to resolve to 127.0.0.1 after it loaded is, to the browser, same-origin with
 * itself while talking to our loopback port: it could read the watchlists and create a webhook rule that streams
 * transcripts out. What the browser cannot hide is the name it believes it talks to: `Host` (and `Origin` on a
 * cross-origin or state-changing request) names the attacker's domain. So an open instance answers only requests
 * whose `Host` and `Origin` name this machine (`localhost`, a 127.x.x.x or `[::1]` literal) or the host of
 * `CALLROOM_PUBLIC_URL`; anything else gets 421 (Host) or 403 (Origin), before any handler runs.
 *
 * With users the check is not needed (a rebinding page has no session cookie: the cookie belongs to our name).
 */

export type HostRefusal = {
  status: 421 | 403;
  code: "misdirected_request" | "cross_origin";
  message: string;
};

/** `name`, `name:port`, `[v6]` or `[v6]:port` → the bare lower-case name (`::1` for `[::1]`); null if unparsable. */
export function hostName(hostHeader: string): string | null {
  const h = hostHeader.trim().toLowerCase();
  if (h === "") return null;
  if (h.startsWith("[")) {
    const end = h.indexOf("]");
    if (end === -1) return null;
    const rest = h.slice(end + 1);
    if (rest !== "" && !/^:\d{1,5}$/.test(rest)) return null;
    return h.slice(1, end);
  }
  const m = /^([^:]+)(?::\d{1,5})?$/.exec(h);
  return m ? m[1]!.replace(/\.$/, "") : null;
}

function isLocalName(name: string): boolean {
  return name === "localhost" || isLoopbackAddress(name);
}

export interface HostCheck {
  /** Null when the request may proceed. */
  refusal(headers: { host: string | null; origin: string | null }): HostRefusal | null;
}

/** `publicUrl`: `CALLROOM_PUBLIC_URL`, whose host is accepted beside loopback's names. */
export function createHostCheck(publicUrl: string | undefined | null): HostCheck {
  let publicName: string | null = null;
  if (publicUrl && URL.canParse(publicUrl)) publicName = hostName(new URL(publicUrl).host);
  const allowed = (name: string | null) => name !== null && (isLocalName(name) || name === publicName);
  return {
    refusal({ host, origin }) {
      // HTTP/1.0 without Host comes from a program, never a browser: nothing to rebind.
      if (host !== null && !allowed(hostName(host)))
        return {
          status: 421,
          code: "misdirected_request",
          message:
            "This Callroom server has no users, so it answers only under this machine's names (localhost, " +
            "127.0.0.1, [::1]) or CALLROOM_PUBLIC_URL's host.",
        };
      if (origin !== null) {
        const originHost = URL.canParse(origin) ? new URL(origin).host : null;
        if (originHost === null || !allowed(hostName(originHost)))
          return {
            status: 403,
            code: "cross_origin",
            message: "This Callroom server has no users, so it answers only pages of its own origin.",
          };
      }
      return null;
    },
  };
}
