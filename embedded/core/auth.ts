/**
 * API keys and plans (docs/upstream.md §1). The same lookup serves REST and the WebSocket handshake, so a key is
 * accepted or refused identically on both.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { Product } from "./types";

export const PRODUCTS = ["calendars", "fundamentals", "transcripts"] as const satisfies readonly Product[];

export type KeyPlans = ReadonlyMap<string, ReadonlySet<Product>>;

export type AuthDecision = "ok" | "unauthorized" | "forbidden";

export type Authorize = (key: string | null, product: Product) => AuthDecision;

/** A key is one run of printable non-space characters; anything else (padding, inner spaces) is refused. */
const KEY_SHAPE = /^[\x21-\x7e]+$/;

export function createAuthorizer(plans: KeyPlans): Authorize {
  return (key, product) => {
    if (key === null || !KEY_SHAPE.test(key)) return "unauthorized";
    const plan = plans.get(key);
    if (plan === undefined) return "unauthorized";
    return plan.has(product) ? "ok" : "forbidden";
  };
}

/**
 * The key a request presents: the `Authorization: token KEY` header wins over `?token=KEY`. A header that is present
 * but not of that form yields an invalid key rather than falling back to the query, so a broken client is told so.
 * Returns null when neither is present; the raw (untrimmed) key otherwise, so a space-padded key fails the check.
 */
export function presentedKey(headers: IncomingHttpHeaders, query: URLSearchParams): string | null {
  const header = headers.authorization;
  if (header !== undefined) {
    const match = /^token (.*)$/i.exec(header);
    return match ? (match[1] as string) : "";
  }
  return query.get("token");
}
