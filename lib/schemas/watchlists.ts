import { z } from "zod";

/**
 * Watchlists of `/api/watchlists`: named, ordered lists of tickers, per user. Tickers follow the upstream's rule
 * (a letter, then up to nine letters, digits, "." or "-"), upper-cased and de-duplicated with their order kept.
 */

export const WATCHLIST_MAX_TICKERS = 500;
export const WATCHLIST_NAME_MAX = 80;

const SYMBOL = /^[A-Z][A-Z0-9.-]{0,9}$/;

export const watchlistTickerSchema = z
  .string()
  .trim()
  .transform((s) => s.toUpperCase())
  .refine((s) => SYMBOL.test(s), {
    message: 'tickers must be ticker symbols (a letter, then up to 9 letters, digits, "." or "-")',
  });

export const watchlistTickersSchema = z
  .array(watchlistTickerSchema)
  .max(WATCHLIST_MAX_TICKERS, `tickers must list at most ${WATCHLIST_MAX_TICKERS} symbols`)
  .transform((list) => [...new Set(list)]);

export const watchlistNameSchema = z
  .string()
  .trim()
  .min(1, "name must not be empty")
  .max(WATCHLIST_NAME_MAX, `name must be at most ${WATCHLIST_NAME_MAX} characters`);

/** Body of `POST /api/watchlists`. */
export const watchlistCreateSchema = z.strictObject({
  name: watchlistNameSchema,
  tickers: watchlistTickersSchema.default([]),
});
export type WatchlistCreate = z.infer<typeof watchlistCreateSchema>;

/**
 * Body of `PATCH /api/watchlists/{id}`: a new name, a whole new ticker list, or single additions and removals (what
 * a follow button sends, so two tabs following different tickers do not overwrite each other), or a new position.
 */
export const watchlistPatchSchema = z
  .strictObject({
    name: watchlistNameSchema.optional(),
    tickers: watchlistTickersSchema.optional(),
    add: watchlistTickersSchema.optional(),
    remove: watchlistTickersSchema.optional(),
    position: z.number().int().min(0).max(10_000).optional(),
  })
  .refine((p) => Object.values(p).some((v) => v !== undefined), { message: "give at least one change" });
export type WatchlistPatch = z.infer<typeof watchlistPatchSchema>;

export const watchlistSchema = z.object({
  id: z.string(),
  name: z.string(),
  position: z.number().int(),
  tickers: z.array(z.string()),
  createdAt: z.string(),
});
export type Watchlist = z.infer<typeof watchlistSchema>;

export const watchlistListSchema = z.object({ data: z.array(watchlistSchema) });
export type WatchlistList = z.infer<typeof watchlistListSchema>;
