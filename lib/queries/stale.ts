import type { Meta } from "@/lib/schemas/envelope";

/**
 * How often a query whose answer came from the server's cache during an upstream outage (`meta.stale`) asks again.
 * Stale answers are sent `no-store`, so each try reaches our server, which tries the upstream; once it answers, the
 * fresh envelope replaces the stale one and the note disappears without a reload.
 */
export const STALE_RETRY_MS = 30_000;

/** The `meta` of one of our envelopes, when `data` is one. */
export function envelopeMeta(data: unknown): Meta | null {
  if (typeof data !== "object" || data === null || !("meta" in data)) return null;
  const meta = (data as { meta: unknown }).meta;
  if (typeof meta !== "object" || meta === null) return null;
  const { fetchedAt, stale } = meta as Partial<Meta>;
  return typeof fetchedAt === "string" && typeof stale === "boolean" ? { fetchedAt, stale } : null;
}

export function isStaleEnvelope(data: unknown): boolean {
  return envelopeMeta(data)?.stale === true;
}

/** `refetchInterval` for any query: poll only while the cached answer is a stale one. */
export function refetchWhileStale(query: { state: { data: unknown } }): number | false {
  return isStaleEnvelope(query.state.data) ? STALE_RETRY_MS : false;
}

/** `staleTime` that is `freshMs` for good data and 0 for stale data, so a window focus retries at once. */
export function staleTimeUnlessStale(freshMs: number) {
  return (query: { state: { data: unknown } }): number => (isStaleEnvelope(query.state.data) ? 0 : freshMs);
}
