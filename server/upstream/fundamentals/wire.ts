import "server-only";
import { z } from "zod";

/**
 * The service's shapes of fundamentals v2.1 and the v3 balance sheet (docs/upstream.md §3, §4, §8): the structure
 * only (a `result` array of per-company items, each section an object or an array of objects); field values are
 * read by `transform.ts`. Private to server/upstream/.
 */

export type Obj = Record<string, unknown>;
const obj = z.record(z.string(), z.unknown());
/** A section documented as an array that the real service sometimes sends as one object (or null). */
const section = z.union([z.array(obj), obj, z.null()]).optional();

export const upstreamFundamentalsItemSchema = z.looseObject({
  symbol: z.union([z.string(), z.number()]).nullish(),
  id: z.union([z.string(), z.number()]).nullish(),
  idType: z.string().nullish(),
  company: obj.nullish(),
  valuationRatios: section,
  operationRatios: section,
  earningRatios: section,
  earningReports: section,
  financials: section,
  shareClass: section,
  shareClassProfileHistory: section,
  shareClassProfile: section,
  alphaBeta: section,
  companyProfile: section,
  assetClassification: section,
  processingTimeMillis: z.union([z.number(), z.string()]).nullish(),
});
export type UpstreamFundamentalsItem = z.infer<typeof upstreamFundamentalsItemSchema>;

export const upstreamErrorItemSchema = z.looseObject({
  code: z.string().nullish(),
  value: z.string().nullish(),
});

export const upstreamFundamentalsResponseSchema = z.union([
  z.array(upstreamFundamentalsItemSchema),
  z.looseObject({
    ok: z.union([z.boolean(), z.string()]).nullish(),
    errors: z.array(upstreamErrorItemSchema).nullish(),
    result: z.array(upstreamFundamentalsItemSchema).nullish(),
    data: z
      .union([
        z.looseObject({ result: z.array(upstreamFundamentalsItemSchema).nullish() }),
        z.array(upstreamFundamentalsItemSchema),
      ])
      .nullish(),
  }),
]);
export type UpstreamFundamentalsResponse = z.infer<typeof upstreamFundamentalsResponseSchema>;

export const upstreamBalanceSheetRowSchema = z.looseObject({ symbol: z.string().nullish() });
export const upstreamBalanceSheetResponseSchema = z.looseObject({
  ok: z.union([z.boolean(), z.string()]).nullish(),
  data: z
    .array(
      z.looseObject({
        symbol: z.string().nullish(),
        balance_sheet: z
          .union([
            z.looseObject({
              type: z.string().nullish(),
              data: z.array(upstreamBalanceSheetRowSchema).nullish(),
            }),
            z.array(upstreamBalanceSheetRowSchema),
          ])
          .nullish(),
      }),
    )
    .nullish(),
});
export type UpstreamBalanceSheetResponse = z.infer<typeof upstreamBalanceSheetResponseSchema>;
