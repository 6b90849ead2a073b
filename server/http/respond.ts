import "server-only";

/**
 * Successful JSON answers. Market data is licensed per user, so responses are `private` (no shared caches);
 * `max-age` is what remains of our own server-side freshness, so a browser never holds data longer than we would.
 * Stale answers (served because the upstream failed) are `no-store`: the next try should reach the upstream.
 */
export function jsonResponse(
  body: unknown,
  cache: { freshSeconds: number; fetchedAt?: string; stale?: boolean } | "no-store",
  init: { status?: number } = {},
): Response {
  const headers = new Headers({ "Content-Type": "application/json" });
  if (cache === "no-store" || cache.stale) headers.set("Cache-Control", "no-store");
  else {
    const ageSeconds = cache.fetchedAt ? Math.max(0, (Date.now() - Date.parse(cache.fetchedAt)) / 1000) : 0;
    const maxAge = Math.max(0, Math.floor(cache.freshSeconds - ageSeconds));
    headers.set("Cache-Control", `private, max-age=${maxAge}`);
  }
  return new Response(JSON.stringify(body), { status: init.status ?? 200, headers });
}

/** A per-user or changing answer: JSON, never cached anywhere. */
export function privateJson(body: unknown, status = 200): Response {
  return jsonResponse(body, "no-store", { status });
}

/** 204: done, nothing to say. */
export function noContent(): Response {
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
}

/** Our `{ data, meta }` envelope (lib/schemas/envelope.ts) around a cached upstream result. */
export function envelopeResponse<T>(
  result: { value: T; fetchedAt: string; stale: boolean },
  freshMs: number,
  extraMeta: Record<string, unknown> = {},
): Response {
  const body = {
    data: result.value,
    meta: { fetchedAt: result.fetchedAt, stale: result.stale, ...extraMeta },
  };
  return jsonResponse(body, {
    freshSeconds: freshMs / 1000,
    fetchedAt: result.fetchedAt,
    stale: result.stale,
  });
}

/**
 * A paged list in our envelope, for upstream lists that report their total (calls, summaries): `meta.page` is
 * 0-based like the calendars', `hasMore` follows from the total.
 */
export function pagedResponse<T>(
  page: { items: T[]; total: number; fetchedAt: string; stale: boolean },
  query: { page: number; pageSize: number },
  freshSeconds: number,
): Response {
  const body = {
    data: page.items,
    meta: {
      fetchedAt: page.fetchedAt,
      stale: page.stale,
      page: query.page,
      pageSize: query.pageSize,
      hasMore: (query.page + 1) * query.pageSize < page.total,
      total: page.total,
    },
  };
  return jsonResponse(body, { freshSeconds, fetchedAt: page.fetchedAt, stale: page.stale });
}
