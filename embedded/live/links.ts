/**
 * Signed media links (docs/upstream.md §5) for the live routes, on top of `./signing` (the audio engineer's
 * CloudFront-style signer). Each link is signed for its exact path; playlist segment URIs are re-signed with a
 * fresh TTL on every playlist fetch, so a player polling an EVENT playlist keeps working while its playlist link
 * is valid. The secret is per process: links die with it, and REST hands out fresh ones.
 */
import { randomSigningSecret, signPath, verifySignedRequest } from "./signing";

export interface LinkSigner {
  /** Query string (without `?`) that authorises `path` until `now + ttl`. */
  sign(path: string, nowMs: number): string;
  /** False for expired, forged or mismatched links (routes answer 403 `Access denied`). */
  verify(path: string, query: URLSearchParams, nowMs: number): boolean;
}

export function createLinkSigner(ttlSeconds: number, secret: Buffer = randomSigningSecret()): LinkSigner {
  return {
    sign: (path, nowMs) => signPath(path, { ttlSeconds, now: nowMs, secret }),
    verify: (path, query, nowMs) => verifySignedRequest(path, query, { now: nowMs, secret }) === "ok",
  };
}
