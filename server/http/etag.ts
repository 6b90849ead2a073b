import "server-only";
import { createHash } from "node:crypto";

/**
 * Strong validators for cached answers: a hash of the exact bytes (the identity encoding), so two instances holding
 * the same answer give it the same tag and a browser's `If-None-Match` holds across them. The compressed variants
 * carry the same tag: RFC 9110 lets a strong tag name the representation before content coding when the server
 * varies on Accept-Encoding and never serves one encoding's bytes for another's range request (we serve no ranges).
 */
export function strongEtag(body: Uint8Array): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
}

/** `If-None-Match` holds `etag` (weak comparison, as RFC 9110 §13.1.2 requires for this header), or is `*`. */
export function ifNoneMatchHolds(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const wanted = etag.startsWith("W/") ? etag.slice(2) : etag;
  for (const raw of header.split(",")) {
    const tag = raw.trim();
    if (tag === "*") return true;
    if ((tag.startsWith("W/") ? tag.slice(2) : tag) === wanted) return true;
  }
  return false;
}
