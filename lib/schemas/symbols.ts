import { z } from "zod";

/**
 * `GET /api/symbols?q=` — company search over the directory we build from the earnings calendar (the upstream has
 * no company directory). Answers `{ data: SymbolMatch[], meta }` (envelope in `./envelope`), at most 20 matches,
 * exact ticker first, then ticker prefixes, then name-word matches.
 */
export const symbolMatchSchema = z.object({
  ticker: z.string(),
  name: z.string(),
  exchange: z.string().nullable(),
});
export type SymbolMatch = z.infer<typeof symbolMatchSchema>;

export const SYMBOL_SEARCH_LIMIT = 20;

export const symbolsQuerySchema = z.object({
  q: z
    .string()
    .transform((s) => s.trim())
    .refine((s) => s.length >= 1 && s.length <= 64, { message: "q must be between 1 and 64 characters" }),
});
export type SymbolsQuery = z.infer<typeof symbolsQuerySchema>;
