/**
 * Signed media links (contract §5): `?Key-Pair-Id=…&Policy=…&Signature=…`, CloudFront style. `Policy` is
 * base64url JSON carrying the resource path and its expiry; `Signature` is an HMAC over both with a per-process
 * secret, so links die with the process (a restarted service hands out fresh ones through REST).
 * Verification answers false for expired, forged or mismatched links; routes turn that into 403 `Access denied`.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export interface LinkSigner {
  /** Query string (without `?`) that authorises `path` until `now + ttl`. */
  sign(path: string, nowMs: number): string;
  verify(path: string, query: URLSearchParams, nowMs: number): boolean;
}

const KEY_PAIR_ID = "K2EMBEDDEDDEMO";

export function createLinkSigner(ttlSeconds: number, secret: Buffer = randomBytes(32)): LinkSigner {
  const mac = (path: string, policy: string) =>
    createHmac("sha256", secret).update(`${path}\n${policy}`).digest("base64url");
  return {
    sign(path, nowMs) {
      const expires = Math.floor(nowMs / 1000) + ttlSeconds;
      const policy = Buffer.from(
        JSON.stringify({
          Statement: [{ Resource: path, Condition: { DateLessThan: { "AWS:EpochTime": expires } } }],
        }),
      ).toString("base64url");
      return new URLSearchParams({
        "Key-Pair-Id": KEY_PAIR_ID,
        Policy: policy,
        Signature: mac(path, policy),
      }).toString();
    },
    verify(path, query, nowMs) {
      const policy = query.get("Policy");
      const signature = query.get("Signature");
      if (!policy || !signature || query.get("Key-Pair-Id") !== KEY_PAIR_ID) return false;
      const expected = Buffer.from(mac(path, policy));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
      try {
        const parsed = JSON.parse(Buffer.from(policy, "base64url").toString("utf8")) as {
          Statement?: { Resource?: string; Condition?: { DateLessThan?: { "AWS:EpochTime"?: number } } }[];
        };
        const statement = parsed.Statement?.[0];
        const expires = statement?.Condition?.DateLessThan?.["AWS:EpochTime"];
        return statement?.Resource === path && typeof expires === "number" && nowMs / 1000 < expires;
      } catch {
        return false;
      }
    },
  };
}
