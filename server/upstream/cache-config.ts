import "server-only";
import { z } from "zod";

/**
 * Memory bounds of the response cache, from `CALLROOM_CACHE_MAX_BYTES` (the budget of every cached answer together,
 * default 256 MB, also the budget of the shared Redis copies) and `CALLROOM_CACHE_MAX_ENTRY_BYTES` (an answer larger
 * than this is served but not kept, default 2 MB). Sizes are estimates of heap bytes (`value-size.ts`); in Redis,
 * bytes of the stored JSON. An unusable value falls back to the default rather than failing every request.
 */

export interface CacheLimits {
  maxBytes: number;
  maxEntryBytes: number;
}

export const DEFAULT_CACHE_LIMITS: CacheLimits = {
  maxBytes: 256 * 1024 * 1024,
  maxEntryBytes: 2 * 1024 * 1024,
};

const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const bytes = (fallback: number) =>
  z.preprocess(
    blank,
    z.coerce
      .number()
      .int()
      .min(1024)
      .max(2 ** 40)
      .catch(fallback)
      .default(fallback),
  );

const schema = z.object({
  CALLROOM_CACHE_MAX_BYTES: bytes(DEFAULT_CACHE_LIMITS.maxBytes),
  CALLROOM_CACHE_MAX_ENTRY_BYTES: bytes(DEFAULT_CACHE_LIMITS.maxEntryBytes),
});

export function readCacheLimits(source: Record<string, string | undefined>): CacheLimits {
  const e = schema.parse(source);
  // One answer may not take more than the whole budget.
  return {
    maxBytes: e.CALLROOM_CACHE_MAX_BYTES,
    maxEntryBytes: Math.min(e.CALLROOM_CACHE_MAX_ENTRY_BYTES, e.CALLROOM_CACHE_MAX_BYTES),
  };
}
