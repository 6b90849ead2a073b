import { z } from "zod";
import {
  BALANCE_SHEET_NUMBER_KEYS,
  EARNING_RATIO_KEYS,
  FINANCIALS_PERIODS,
  OPERATION_RATIO_KEYS,
  REPORT_TYPES,
  VALUATION_RATIO_KEYS,
} from "./fundamentals-keys";
import { dateParam, enumParam, symbolListParam } from "./params";

// The key lists live in a zod-free module so browser code can import them without pulling in zod.
export {
  BALANCE_SHEET_NUMBER_KEYS,
  EARNING_RATIO_KEYS,
  FINANCIALS_PERIODS,
  OPERATION_PERIODS,
  OPERATION_RATIO_KEYS,
  REPORT_TYPES,
  VALUATION_RATIO_KEYS,
} from "./fundamentals-keys";

/**
 * Fundamentals as OUR API serves them: `GET /api/fundamentals/[kind]` answers `{ data: Item[], meta }` (envelope
 * in `./envelope`), one item per known symbol (unknown symbols are left out; none known → 404 `not_found`).
 * Every number is `number | null`; every string `string | null` ("" from the upstream becomes null).
 * Field names are camelCase with acronyms as words (`ebitdaMargin`, `peRatio`, `dilutedEps`).
 */

export const FUNDAMENTALS_KINDS = [
  "valuation-ratios",
  "operation-ratios",
  "earning-ratios",
  "earning-reports",
  "financials",
  "share-class",
  "share-class-profile",
  "alpha-beta",
  "company",
  "company-profile",
  "asset-classification",
  "balance-sheet",
  "all",
] as const;
export type FundamentalsKind = (typeof FUNDAMENTALS_KINDS)[number];

export function isFundamentalsKind(value: string): value is FundamentalsKind {
  return (FUNDAMENTALS_KINDS as readonly string[]).includes(value);
}

const num = z.number().nullable();
const str = z.string().nullable();

function numberFields<const K extends readonly string[]>(keys: K) {
  return Object.fromEntries(keys.map((k) => [k, num])) as { [P in K[number]]: typeof num };
}
function stringFields<const K extends readonly string[]>(keys: K) {
  return Object.fromEntries(keys.map((k) => [k, str])) as { [P in K[number]]: typeof str };
}

/* ------------------------------------------------------------------ company */

export const COMPANY_KEYS = [
  "primarySymbol",
  "primaryExchange",
  "cik",
  "valoren",
  "sedol",
  "standardName",
] as const;
export const companySchema = z.object(stringFields(COMPANY_KEYS));
export type Company = z.infer<typeof companySchema>;

const baseItem = { symbol: z.string(), company: companySchema };

/* ------------------------------------------------------------------ valuation ratios */

/** One month-end snapshot. peRatio, psRatio, pbRatio, pcfRatio, fcfRatio, forwardPeRatio are null when negative. */
export const valuationRatioSchema = z.object({
  shareClassId: str,
  /** Month end, YYYY-MM-DD. */
  date: str,
  ...numberFields(VALUATION_RATIO_KEYS),
  /** Numeric ratios beyond the known ones (the real service publishes about a hundred). */
  other: z.record(z.string(), z.number()),
});
export type ValuationRatio = z.infer<typeof valuationRatioSchema>;

/* ------------------------------------------------------------------ operation ratios */

/** One period's ratios. The upstream groups them by period; we flatten: newest first, then by period. */
export const operationRatioSchema = z.object({
  /** `3M`, `6M`, `9M` or `1Y` (a company may lack some). */
  period: z.string(),
  fiscalYearEnd: str,
  reportType: str,
  asOf: str,
  ...numberFields(OPERATION_RATIO_KEYS),
  /** Numeric ratios the upstream sent beyond the known ones (the seed stops listing after quickRatio). */
  other: z.record(z.string(), z.number()),
});
export type OperationRatio = z.infer<typeof operationRatioSchema>;

/* ------------------------------------------------------------------ earning ratios */

/** Growth figures are percent. */
export const earningRatioSchema = z.object({
  shareClassId: str,
  asOf: str,
  reportType: str,
  period: str,
  aorOrRestate: str,
  fiscalYearEnd: num,
  ...numberFields(EARNING_RATIO_KEYS),
  /** Growth figures beyond the known ones (e.g. `fcfPerShareGrowth`), percent. */
  other: z.record(z.string(), z.number()),
});
export type EarningRatio = z.infer<typeof earningRatioSchema>;

/* ------------------------------------------------------------------ earning reports */

export const EARNING_REPORT_KEYS = [
  "basicEps",
  "basicContinuousOperations",
  "continuingAndDiscontinuedBasicEps",
  "continuingAndDiscontinuedDilutedEps",
  "dilutedAverageShares",
  "dilutedContinuousOperations",
  "dilutedEps",
  "dividendPerShare",
  "basicAverageShares",
  "normalizedBasicEps",
  "normalizedDilutedEps",
] as const;

/** One period's report (`3M`, `6M`, `12M`); flattened like operation ratios: newest first, then by period. */
export const earningReportSchema = z.object({
  period: z.string(),
  asOf: str,
  reportType: str,
  currency: str,
  fiscalYearEnd: str,
  ...numberFields(EARNING_REPORT_KEYS),
  /** Per-share figures beyond the known ones. */
  other: z.record(z.string(), z.number()),
});
export type EarningReport = z.infer<typeof earningReportSchema>;

/* ------------------------------------------------------------------ financial statements */

/**
 * Line items keyed by camelCase name as the upstream names them (e.g. totalAssets, netPpe, operatingCashFlow,
 * totalRevenue, ebitda): every numeric item present, the record's metadata (`id`, `currencyId`,
 * `periodEndingDate`, `isCalculated`, `fiscalYearEnd`, …) lifted out.
 */
export const lineItemsSchema = z.record(z.string(), num);
export type LineItems = z.infer<typeof lineItemsSchema>;

export const financialStatementSchema = z.object({
  asOf: str,
  period: str,
  reportType: str,
  aorOrRestate: str,
  /** ISO 4217 code of the amounts. */
  currency: str,
  /** YYYY-MM-DD: the statement's own period end (equals `asOf` for as-reported statements). */
  periodEndingDate: str,
  balanceSheet: lineItemsSchema,
  cashFlowStatement: lineItemsSchema,
  incomeStatement: lineItemsSchema,
});
export type FinancialStatement = z.infer<typeof financialStatementSchema>;

/* ------------------------------------------------------------------ share class */

export const shareClassSchema = z.object({
  shareClassId: str,
  symbol: str,
  exchangeId: str,
  currency: str,
  /** YYYY-MM-DD. */
  ipoDate: str,
  /** The upstream spells it `isDepositaryRecipt`. */
  isDepositaryReceipt: z.boolean().nullable(),
  isPrimary: z.boolean().nullable(),
  securityType: str,
  enterpriseValue: num,
  marketCap: num,
});
export type ShareClass = z.infer<typeof shareClassSchema>;

export const shareClassProfileSchema = z.object({
  asOf: str,
  marketCap: num,
  enterpriseValue: num,
  sharesOutstanding: num,
});
export type ShareClassProfile = z.infer<typeof shareClassProfileSchema>;

/* ------------------------------------------------------------------ alpha / beta */

export const alphaBetaSchema = z.object({
  shareClassId: str,
  asOf: str,
  /** `36M` or `60M`. */
  period: str,
  alpha: num,
  beta: num,
  nonDivAlpha: num,
  nonDivBeta: num,
});
export type AlphaBeta = z.infer<typeof alphaBetaSchema>;

/* ------------------------------------------------------------------ profile and classification */

export const COMPANY_PROFILE_KEYS = [
  "companyStatus",
  "countryId",
  "fiscalYearEnd",
  "shortName",
  "standardName",
  "legalName",
  "address1",
  "city",
  "province",
  "postalCode",
  "country",
  "phone",
  "fax",
  "homepage",
  "shortDescription",
  "longDescription",
] as const;
export const companyProfileSchema = z.object(stringFields(COMPANY_PROFILE_KEYS));
export type CompanyProfile = z.infer<typeof companyProfileSchema>;

export const ASSET_CLASSIFICATION_KEYS = [
  "sic",
  "sicName",
  "naics",
  "naicsName",
  "msSectorCode",
  "msSectorName",
  "msGroupCode",
  "msGroupName",
  "msIndustryCode",
  "msIndustryName",
  "msSuperSectorCode",
  "msSuperSectorName",
] as const;
export const assetClassificationSchema = z.object(stringFields(ASSET_CLASSIFICATION_KEYS));
export type AssetClassification = z.infer<typeof assetClassificationSchema>;

/* ------------------------------------------------------------------ balance sheet (v3) */

export const balanceSheetRowSchema = z.object({
  symbol: z.string(),
  fiscalYear: num,
  /** Q1–Q4 or FY. */
  fiscalPeriod: str,
  reportDate: str,
  publishDate: str,
  currency: str,
  reportType: str,
  ...numberFields(BALANCE_SHEET_NUMBER_KEYS),
});
export type BalanceSheetRow = z.infer<typeof balanceSheetRowSchema>;

/* ------------------------------------------------------------------ items per kind */

export const valuationRatiosItemSchema = z.object({
  ...baseItem,
  valuationRatios: z.array(valuationRatioSchema),
});
export const operationRatiosItemSchema = z.object({
  ...baseItem,
  operationRatios: z.array(operationRatioSchema),
});
export const earningRatiosItemSchema = z.object({ ...baseItem, earningRatios: z.array(earningRatioSchema) });
export const earningReportsItemSchema = z.object({
  ...baseItem,
  earningReports: z.array(earningReportSchema),
});
export const financialsItemSchema = z.object({ ...baseItem, financials: z.array(financialStatementSchema) });
export const shareClassItemSchema = z.object({ ...baseItem, shareClass: shareClassSchema.nullable() });
export const shareClassProfileItemSchema = z.object({
  ...baseItem,
  /** Monthly history, newest first. */
  shareClassProfile: z.array(shareClassProfileSchema),
});
export const alphaBetaItemSchema = z.object({ ...baseItem, alphaBeta: z.array(alphaBetaSchema) });
export const companyItemSchema = z.object(baseItem);
export const companyProfileItemSchema = z.object({
  ...baseItem,
  companyProfile: companyProfileSchema.nullable(),
});
export const assetClassificationItemSchema = z.object({
  ...baseItem,
  assetClassification: assetClassificationSchema.nullable(),
});
/** v3 has no company block. */
export const balanceSheetItemSchema = z.object({
  symbol: z.string(),
  balanceSheet: z.array(balanceSheetRowSchema),
});
/** The combined endpoint carries the latest value of each section. */
export const allFundamentalsItemSchema = z.object({
  ...baseItem,
  companyProfile: companyProfileSchema.nullable(),
  shareClass: shareClassSchema.nullable(),
  valuationRatios: valuationRatioSchema.nullable(),
  /** One entry per period available. */
  operationRatios: z.array(operationRatioSchema),
  /** One entry per period available. */
  earningReports: z.array(earningReportSchema),
  earningRatios: earningRatioSchema.nullable(),
  alphaBeta: z.array(alphaBetaSchema),
  assetClassification: assetClassificationSchema.nullable(),
  shareClassProfile: shareClassProfileSchema.nullable(),
  /** The latest statement, when the upstream's combined answer carries one (the real service does). */
  financials: financialStatementSchema.nullable(),
  processingTimeMs: num,
});

export const fundamentalsItemSchemas = {
  "valuation-ratios": valuationRatiosItemSchema,
  "operation-ratios": operationRatiosItemSchema,
  "earning-ratios": earningRatiosItemSchema,
  "earning-reports": earningReportsItemSchema,
  financials: financialsItemSchema,
  "share-class": shareClassItemSchema,
  "share-class-profile": shareClassProfileItemSchema,
  "alpha-beta": alphaBetaItemSchema,
  company: companyItemSchema,
  "company-profile": companyProfileItemSchema,
  "asset-classification": assetClassificationItemSchema,
  "balance-sheet": balanceSheetItemSchema,
  all: allFundamentalsItemSchema,
} as const satisfies Record<FundamentalsKind, z.ZodType>;

export type FundamentalsItem<K extends FundamentalsKind> = z.infer<(typeof fundamentalsItemSchemas)[K]>;
export type ValuationRatiosItem = FundamentalsItem<"valuation-ratios">;
export type OperationRatiosItem = FundamentalsItem<"operation-ratios">;
export type EarningRatiosItem = FundamentalsItem<"earning-ratios">;
export type EarningReportsItem = FundamentalsItem<"earning-reports">;
export type FinancialsItem = FundamentalsItem<"financials">;
export type ShareClassItem = FundamentalsItem<"share-class">;
export type ShareClassProfileItem = FundamentalsItem<"share-class-profile">;
export type AlphaBetaItem = FundamentalsItem<"alpha-beta">;
export type CompanyItem = FundamentalsItem<"company">;
export type CompanyProfileItem = FundamentalsItem<"company-profile">;
export type AssetClassificationItem = FundamentalsItem<"asset-classification">;
export type BalanceSheetItem = FundamentalsItem<"balance-sheet">;
export type AllFundamentalsItem = FundamentalsItem<"all">;

/* ------------------------------------------------------------------ queries (our names) */

/** Kinds that accept `period` and `reportType` (docs/upstream.md §3). */
export const KINDS_WITH_PERIOD = [
  "financials",
  "earning-reports",
] as const satisfies readonly FundamentalsKind[];

/**
 * Query of `/api/fundamentals/[kind]` (every kind but `balance-sheet`). `asOf` keeps history on or after it and is
 * refused on `asset-classification` (the upstream answers 400 there); `period`/`reportType` only apply to
 * `financials` and `earning-reports`: the route refuses them elsewhere rather than silently ignoring them.
 */
export const fundamentalsQuerySchema = z.object({
  /** Comma-separated, at most 200. */
  symbols: symbolListParam("symbols", 200),
  asOf: dateParam("asOf").optional(),
  period: enumParam("period", FINANCIALS_PERIODS).optional(),
  reportType: enumParam("reportType", REPORT_TYPES).optional(),
});
export type FundamentalsQuery = z.infer<typeof fundamentalsQuerySchema>;

export const BALANCE_SHEET_RELATIVE_FROM = ["YTD", "1MONTH", "1m", "1M"] as const;

/** Query of `/api/fundamentals/balance-sheet` (upstream v3). */
export const balanceSheetQuerySchema = z
  .object({
    symbols: symbolListParam("symbols", 200),
    /** YYYY-MM-DD, `YTD`, or one month ago as `1MONTH` / `1M` / `1m`. */
    from: z
      .string()
      .refine(
        (v) =>
          (BALANCE_SHEET_RELATIVE_FROM as readonly string[]).includes(v) ||
          dateParam("from").safeParse(v).success,
        { message: "from must be a date in the form YYYY-MM-DD, YTD, 1MONTH or 1M" },
      )
      .optional(),
    /** Inclusive, YYYY-MM-DD; default today. */
    to: dateParam("to").optional(),
    reportType: enumParam("reportType", REPORT_TYPES).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.from && value.to && /^\d{4}/.test(value.from) && value.from > value.to) {
      ctx.addIssue({ code: "custom", path: ["from"], message: "from must be on or before to" });
    }
  });
export type BalanceSheetQuery = z.infer<typeof balanceSheetQuerySchema>;
