import { z } from "zod";

/**
 * The one envelope of every successful GET under our `/api/*` (except `/api/health`, whose shape is fixed by
 * docs/interfaces.md §4): `{ data, meta }`.
 *
 * - `meta.fetchedAt`: ISO 8601 UTC time at which the data left the market-data service (our server caches
 *   responses, so this can be earlier than the request).
 * - `meta.stale`: true only when the market-data service failed and we answered from an older cached copy
 *   ("stale-if-error"); the UI should say "as of <fetchedAt>".
 * - Paged lists add `meta.page` (0-based, as the upstream), `meta.pageSize` and `meta.hasMore` (the page was full,
 *   so a next page may exist; the upstream reports no total).
 */
export const metaSchema = z.object({
  fetchedAt: z.string(),
  stale: z.boolean(),
});
export type Meta = z.infer<typeof metaSchema>;

export const pageMetaSchema = metaSchema.extend({
  page: z.number().int().min(0),
  pageSize: z.number().int().min(1),
  hasMore: z.boolean(),
});
export type PageMeta = z.infer<typeof pageMetaSchema>;

export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({ data, meta: metaSchema });
}

export function pagedEnvelopeSchema<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), meta: pageMetaSchema });
}

export interface Envelope<T> {
  data: T;
  meta: Meta;
}

export interface PagedEnvelope<T> {
  data: T[];
  meta: PageMeta;
}
