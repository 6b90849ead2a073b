/**
 * Signed, time-limited media links (docs/upstream.md §5), in the style of the real service's CDN links:
 * `?Key-Pair-Id=…&Policy=…&Signature=…`.
 *
 * - `Policy` is base64url JSON `{"resource": …, "expires": <epoch seconds>}`. `resource` is either an exact path
 *   or a prefix ending in `/*`.
 * - `Signature` is base64url HMAC-SHA256 over `<Key-Pair-Id>.<Policy>` (the id is signed too, so it cannot be
 *   swapped), compared in constant time.
 * - Scope decision: a call's media links are signed for the call's prefix, `callMediaResource(id)` =
 *   `/api/v1/transcripts/calls/{id}/*`. One query string then opens the playlist, every segment and the MP3 of
 *   that call and nothing else (`/calls/{other}/…` does not start with the prefix, `/calls/{id}x/…` neither,
 *   thanks to the trailing slash). The playlist handler may therefore reuse the verified query for its segment
 *   URIs, or re-sign them with a fresh TTL; either way a player polling an EVENT playlist keeps working for as
 *   long as the playlist link is valid.
 * - Outcome order: malformed or bad signature → `forged`; valid signature but the path is outside the resource →
 *   `forged` (the link is genuine but not for this); valid and in scope but past `expires` → `expired`. Both
 *   answer 403 `Access denied`; the distinction is for logs and tests.
 * - Paths are compared as received (the request's raw pathname); paths with `.` / `..` segments or `//` never
 *   match a prefix, so a prefix cannot be escaped.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";

export const DEFAULT_KEY_PAIR_ID = "K2EMBEDDEDDEMO";

export interface SignOptions {
  ttlSeconds: number;
  /** Epoch milliseconds (`Date.now()`). */
  now: number;
  secret: string | Buffer;
  /** What the link opens: `path` itself by default, or a prefix ending in `/*`. */
  resource?: string;
  keyPairId?: string;
}

export interface VerifyOptions {
  now: number;
  secret: string | Buffer;
  keyPairId?: string;
}

export type VerifyResult = "ok" | "expired" | "forged";

const policySchema = z
  .object({
    resource: z.string().min(1).max(2048).startsWith("/"),
    expires: z.number().int().positive(),
  })
  .strict();

const querySchema = z.object({
  "Key-Pair-Id": z.string().min(1).max(64),
  Policy: z
    .string()
    .min(1)
    .max(4096)
    .regex(/^[A-Za-z0-9_-]+$/),
  Signature: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[A-Za-z0-9_-]+$/),
});

/** The resource covering every media file of one call. */
export function callMediaResource(callId: string): string {
  return `/api/v1/transcripts/calls/${callId}/*`;
}

/** A fresh secret for a process that was given none (links then die with the process, which is fine for a demo). */
export function randomSigningSecret(): Buffer {
  return randomBytes(32);
}

function sign(keyPairId: string, policy: string, secret: string | Buffer): string {
  return createHmac("sha256", secret).update(`${keyPairId}.${policy}`).digest("base64url");
}

/** The query string (without `?`) that makes `path` openable until `now + ttlSeconds`. */
export function signPath(path: string, options: SignOptions): string {
  const keyPairId = options.keyPairId ?? DEFAULT_KEY_PAIR_ID;
  const resource = options.resource ?? path;
  if (!resourceCovers(resource, path)) throw new Error(`resource ${resource} does not cover ${path}`);
  const expires = Math.floor(options.now / 1000) + Math.max(1, Math.floor(options.ttlSeconds));
  const policy = Buffer.from(JSON.stringify({ resource, expires })).toString("base64url");
  const query = new URLSearchParams({
    "Key-Pair-Id": keyPairId,
    Policy: policy,
    Signature: sign(keyPairId, policy, options.secret),
  });
  return query.toString();
}

function hasUnsafeSegments(path: string): boolean {
  return path.includes("//") || path.split("/").some((s) => s === "." || s === "..") || /%2e|%2f/i.test(path);
}

function resourceCovers(resource: string, path: string): boolean {
  if (resource.endsWith("/*")) {
    return !hasUnsafeSegments(path) && path.startsWith(resource.slice(0, -1));
  }
  return resource === path;
}

type QueryInput = URLSearchParams | string | Record<string, string | string[] | undefined>;

function toParams(query: QueryInput): Record<string, string | undefined> {
  const params =
    typeof query === "string" || query instanceof URLSearchParams ? new URLSearchParams(query) : undefined;
  const get = (name: string): string | undefined => {
    if (params) return params.getAll(name).length === 1 ? (params.get(name) ?? undefined) : undefined;
    const value = (query as Record<string, string | string[] | undefined>)[name];
    return Array.isArray(value) ? (value.length === 1 ? value[0] : undefined) : value;
  };
  return { "Key-Pair-Id": get("Key-Pair-Id"), Policy: get("Policy"), Signature: get("Signature") };
}

/** Checks a request for `path` (raw pathname, no query) carrying `query`. */
export function verifySignedRequest(path: string, query: QueryInput, options: VerifyOptions): VerifyResult {
  const parsed = querySchema.safeParse(toParams(query));
  if (!parsed.success) return "forged";
  const { "Key-Pair-Id": keyPairId, Policy: policy, Signature: signature } = parsed.data;
  if (keyPairId !== (options.keyPairId ?? DEFAULT_KEY_PAIR_ID)) return "forged";

  const expected = Buffer.from(sign(keyPairId, policy, options.secret));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "forged";

  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(policy, "base64url").toString("utf8"));
  } catch {
    return "forged";
  }
  const body = policySchema.safeParse(decoded);
  if (!body.success) return "forged";
  if (!resourceCovers(body.data.resource, path)) return "forged";
  return Math.floor(options.now / 1000) < body.data.expires ? "ok" : "expired";
}
