import "server-only";
import {
  ASSET_CLASSIFICATION_KEYS,
  COMPANY_KEYS,
  COMPANY_PROFILE_KEYS,
  EARNING_RATIO_KEYS,
  EARNING_REPORT_KEYS,
  OPERATION_PERIODS,
  OPERATION_RATIO_KEYS,
  VALUATION_RATIO_KEYS,
  type AlphaBeta,
  type AssetClassification,
  type BalanceSheetRow,
  type Company,
  type CompanyProfile,
  type EarningRatio,
  type EarningReport,
  type FinancialStatement,
  type FundamentalsItem,
  type FundamentalsKind,
  type LineItems,
  type OperationRatio,
  type ShareClass,
  type ShareClassProfile,
  type ValuationRatio,
  BALANCE_SHEET_NUMBER_KEYS,
} from "@/lib/schemas/fundamentals";
import { getLogger } from "../../log";
import { upstreamErrors } from "../client";
import {
  firstText,
  knownNames,
  otherNumbers,
  pickNumbers,
  pickTexts,
  snakeToCamel,
  toBool,
  toInt,
  toIsoDate,
  toNumber,
  toText,
} from "../values";
import {
  upstreamBalanceSheetResponseSchema,
  upstreamFundamentalsResponseSchema,
  type Obj,
  type UpstreamBalanceSheetResponse,
  type UpstreamFundamentalsItem,
  type UpstreamFundamentalsResponse,
} from "./wire";

/** Fundamentals: the service's records (`wire.ts`) → ours (lib/schemas/fundamentals.ts), tolerantly. */

/* ------------------------------------------------------------------ small helpers */

function asArray(value: Obj[] | Obj | null | undefined): Obj[] {
  if (value === null || value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function first(value: Obj[] | Obj | null | undefined): Obj | null {
  return asArray(value)[0] ?? null;
}

function nested(value: unknown): Obj {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Obj) : {};
}

/**
 * A period-keyed group holds nothing but objects (`{"3M": {...}, "1Y": {...}}`); a record with an `id` or any scalar
 * member is one flat record (the documented shape, or the contract's bare row), whatever else it nests.
 */
function isPeriodGroup(group: Obj): boolean {
  if (group.id !== undefined) return false;
  const members = Object.values(group).filter((v) => v !== null && v !== undefined);
  return members.length > 0 && members.every((v) => typeof v === "object" && !Array.isArray(v));
}

/** The period of a flat record: at the top (seed, contract) or in its `id` (documented). */
function periodOf(record: Obj): string | null {
  return toText(record.period) ?? toText(nested(record.id).period);
}

/** A period-keyed group → its values in a stable period order; a flat record passes as itself. */
function flattenByPeriod(group: Obj, order: readonly string[]): { period: string; value: Obj }[] {
  if (!isPeriodGroup(group)) return [{ period: periodOf(group) ?? "", value: group }];
  const keys = Object.keys(group).filter((k) => group[k] !== null && typeof group[k] === "object");
  keys.sort((a, b) => {
    const ia = order.indexOf(a);
    const ib = order.indexOf(b);
    return (ia === -1 ? order.length : ia) - (ib === -1 ? order.length : ib) || a.localeCompare(b);
  });
  return keys.map((k) => ({ period: k, value: nested(group[k]) }));
}

/* ------------------------------------------------------------------ section mappers */

export function toCompany(raw: Obj | null | undefined): Company {
  return pickTexts(raw, COMPANY_KEYS);
}

/** Metadata members of a documented record: never figures, whatever their type. */
const RECORD_META = [
  "id",
  "period",
  "asOf",
  "date",
  "reportType",
  "aorOrRestate",
  "aorRestate",
  "fiscalYearEnd",
  "fiscalYearEndChange",
  "currency",
  "currencyId",
  "companyId",
  "shareClassId",
  "periodEndingDate",
  "isCalculated",
] as const;

/** Either spelling of the restatement flag, in `id` or at the top. */
function aorOf(raw: Obj, id: Obj): string | null {
  return firstText(id, ["aorOrRestate", "aorRestate"]) ?? firstText(raw, ["aorOrRestate", "aorRestate"]);
}

const VALUATION_ALIASES = { pricetoEbitda: ["priceToEbitda"] } as const;
const VALUATION_KNOWN = knownNames([...RECORD_META, ...VALUATION_RATIO_KEYS], VALUATION_ALIASES);

export function toValuationRatio(raw: Obj): ValuationRatio {
  const id = nested(raw.id);
  return {
    shareClassId: toText(id.shareClassId ?? raw.shareClassId),
    date: toIsoDate(id.date ?? raw.date ?? id.asOf ?? raw.asOf),
    ...pickNumbers(raw, VALUATION_RATIO_KEYS, VALUATION_ALIASES),
    other: otherNumbers(raw, VALUATION_KNOWN),
  };
}

/** The real service's spellings of operation ratios that differ by more than letter case. */
const OPERATION_ALIASES = {
  fixAssetTurnover: ["fixAssetsTuronver", "fixAssetsTurnover"],
  payableTurnover: ["paymentTurnover"],
} as const;
const OPERATION_KNOWN = knownNames([...RECORD_META, ...OPERATION_RATIO_KEYS], OPERATION_ALIASES);

export function toOperationRatio(period: string, raw: Obj): OperationRatio {
  const id = nested(raw.id);
  return {
    period: periodOf(raw) ?? period,
    fiscalYearEnd: toText(raw.fiscalYearEnd),
    reportType: toText(raw.reportType ?? id.reportType),
    asOf: toIsoDate(raw.asOf ?? id.asOf),
    ...pickNumbers(raw, OPERATION_RATIO_KEYS, OPERATION_ALIASES),
    other: otherNumbers(raw, OPERATION_KNOWN),
  };
}

export function toOperationRatios(raw: Obj[] | Obj | null | undefined): OperationRatio[] {
  return asArray(raw).flatMap((group) =>
    flattenByPeriod(group, OPERATION_PERIODS).map(({ period, value }) => toOperationRatio(period, value)),
  );
}

const EARNING_RATIO_ALIASES = { dilutedConstEpsGrowth: ["dilutedContEpsGrowth"] } as const;
const EARNING_RATIO_KNOWN = knownNames([...RECORD_META, ...EARNING_RATIO_KEYS], EARNING_RATIO_ALIASES);

export function toEarningRatio(raw: Obj): EarningRatio {
  const id = nested(raw.id);
  return {
    shareClassId: toText(id.shareClassId ?? raw.shareClassId),
    asOf: toIsoDate(id.asOf ?? raw.asOf),
    reportType: toText(id.reportType ?? raw.reportType),
    period: toText(id.period ?? raw.period),
    aorOrRestate: aorOf(raw, id),
    fiscalYearEnd: toInt(raw.fiscalYearEnd),
    ...pickNumbers(raw, EARNING_RATIO_KEYS, EARNING_RATIO_ALIASES),
    other: otherNumbers(raw, EARNING_RATIO_KNOWN),
  };
}

const EARNING_REPORT_PERIODS = ["3M", "6M", "9M", "12M", "1Y", "TTM"] as const;
const EARNING_REPORT_KNOWN = knownNames([...RECORD_META, ...EARNING_REPORT_KEYS]);

export function toEarningReport(period: string, raw: Obj): EarningReport {
  const id = nested(raw.id);
  return {
    period: periodOf(raw) ?? period,
    asOf: toIsoDate(raw.asOf ?? id.asOf),
    reportType: toText(raw.reportType ?? id.reportType),
    currency: firstText(raw, ["currency", "currencyId"]),
    fiscalYearEnd: toText(raw.fiscalYearEnd),
    ...pickNumbers(raw, EARNING_REPORT_KEYS),
    other: otherNumbers(raw, EARNING_REPORT_KNOWN),
  };
}

export function toEarningReports(raw: Obj[] | Obj | null | undefined): EarningReport[] {
  return asArray(raw).flatMap((group) =>
    flattenByPeriod(group, EARNING_REPORT_PERIODS).map(({ period, value }) => toEarningReport(period, value)),
  );
}

const STATEMENT_META = knownNames(RECORD_META);

/**
 * Every line item of one statement: numbers and decimal strings, `""`/null kept as null. The record's metadata
 * (the documented `id`, `currencyId`, `periodEndingDate`, `isCalculated`, `fiscalYearEnd`, …) is not a line item,
 * and neither is any other text, boolean or object.
 */
function toLineItems(raw: unknown): LineItems {
  const items: LineItems = {};
  for (const [key, value] of Object.entries(nested(raw))) {
    if (STATEMENT_META.has(key.toLowerCase())) continue;
    if ((value !== null && typeof value === "object") || typeof value === "boolean") continue;
    const n = toNumber(value);
    if (n === null && typeof value === "string" && value.trim() !== "") continue;
    items[snakeToCamel(key.charAt(0).toLowerCase() + key.slice(1))] = n;
  }
  return items;
}

const STATEMENT_PARTS = ["balanceSheet", "incomeStatement", "cashFlowStatement"] as const;

/**
 * A statement's metadata sits on the statement (seed, contract) or only inside each part's documented record; the
 * first place that has it answers.
 */
export function toFinancialStatement(raw: Obj): FinancialStatement {
  const sources = [
    raw,
    nested(raw.id),
    ...STATEMENT_PARTS.flatMap((p) => [nested(raw[p]), nested(nested(raw[p]).id)]),
  ];
  const text = (names: readonly string[]) => {
    for (const source of sources) {
      const t = firstText(source, names);
      if (t !== null) return t;
    }
    return null;
  };
  return {
    asOf: toIsoDate(text(["asOf"])),
    period: text(["period"]),
    reportType: text(["reportType"]),
    aorOrRestate: text(["aorOrRestate", "aorRestate"]),
    currency: text(["currency", "currencyId"]),
    periodEndingDate: toIsoDate(text(["periodEndingDate"])) ?? toIsoDate(text(["asOf"])),
    balanceSheet: toLineItems(raw.balanceSheet),
    cashFlowStatement: toLineItems(raw.cashFlowStatement),
    incomeStatement: toLineItems(raw.incomeStatement),
  };
}

export function toShareClass(raw: Obj): ShareClass {
  const id = nested(raw.id);
  return {
    shareClassId: toText(raw.shareClassId ?? id.shareClassId),
    symbol: toText(raw.symbol),
    exchangeId: toText(raw.exchangeId),
    currency: firstText(raw, ["currency", "currencyId"]),
    ipoDate: toIsoDate(raw.ipoDate),
    isDepositaryReceipt: toBool(raw.isDepositaryRecipt ?? raw.isDepositaryReceipt),
    isPrimary: toBool(raw.isPrimary ?? raw.isPrimaryShare),
    securityType: toText(raw.securityType),
    enterpriseValue: toNumber(raw.enterpriseValue),
    marketCap: toNumber(raw.marketCap),
  };
}

export function toShareClassProfile(raw: Obj): ShareClassProfile {
  return {
    asOf: toIsoDate(raw.asOf ?? nested(raw.id).asOf),
    marketCap: toNumber(raw.marketCap),
    enterpriseValue: toNumber(raw.enterpriseValue),
    sharesOutstanding: toNumber(raw.sharesOutstanding),
  };
}

export function toAlphaBeta(raw: Obj): AlphaBeta {
  const id = nested(raw.id);
  return {
    shareClassId: toText(id.shareClassId ?? raw.shareClassId),
    asOf: toIsoDate(id.asOf ?? raw.asOf),
    period: toText(id.period ?? raw.period),
    alpha: toNumber(raw.alpha),
    beta: toNumber(raw.beta),
    nonDivAlpha: toNumber(raw.nonDivAlpha),
    nonDivBeta: toNumber(raw.nonDivBeta),
  };
}

export function toCompanyProfile(raw: Obj): CompanyProfile {
  return pickTexts(raw, COMPANY_PROFILE_KEYS);
}

export function toAssetClassification(raw: Obj): AssetClassification {
  return pickTexts(raw, ASSET_CLASSIFICATION_KEYS);
}

/**
 * The combined answer's "latest" section: the records of the newest `asOf`, one per period. The seed sends one
 * period group, the documented service an array of flat records (newest first, several dates).
 */
function latestOf<T extends { asOf: string | null }>(records: T[]): T[] {
  const newest = records.reduce<string | null>(
    (m, r) => (r.asOf !== null && (m === null || r.asOf > m) ? r.asOf : m),
    null,
  );
  return newest === null ? records.slice(0, 1) : records.filter((r) => r.asOf === newest);
}

/* ------------------------------------------------------------------ item mappers per kind */

function base(item: UpstreamFundamentalsItem) {
  const company = toCompany(item.company);
  const symbol = toText(item.symbol) ?? company.primarySymbol ?? toText(item.id) ?? "";
  return { symbol: symbol.toUpperCase(), company };
}

export type V21Kind = Exclude<FundamentalsKind, "balance-sheet">;

const itemMappers: { [K in V21Kind]: (item: UpstreamFundamentalsItem) => FundamentalsItem<K> } = {
  "valuation-ratios": (i) => ({
    ...base(i),
    valuationRatios: asArray(i.valuationRatios).map(toValuationRatio),
  }),
  "operation-ratios": (i) => ({ ...base(i), operationRatios: toOperationRatios(i.operationRatios) }),
  "earning-ratios": (i) => ({ ...base(i), earningRatios: asArray(i.earningRatios).map(toEarningRatio) }),
  "earning-reports": (i) => ({ ...base(i), earningReports: toEarningReports(i.earningReports) }),
  financials: (i) => ({ ...base(i), financials: asArray(i.financials).map(toFinancialStatement) }),
  "share-class": (i) => {
    const raw = first(i.shareClass);
    return { ...base(i), shareClass: raw ? toShareClass(raw) : null };
  },
  "share-class-profile": (i) => ({
    ...base(i),
    shareClassProfile: asArray(i.shareClassProfileHistory ?? i.shareClassProfile).map(toShareClassProfile),
  }),
  "alpha-beta": (i) => ({ ...base(i), alphaBeta: asArray(i.alphaBeta).map(toAlphaBeta) }),
  company: (i) => base(i),
  "company-profile": (i) => {
    const raw = first(i.companyProfile);
    return { ...base(i), companyProfile: raw ? toCompanyProfile(raw) : null };
  },
  "asset-classification": (i) => {
    const raw = first(i.assetClassification);
    return { ...base(i), assetClassification: raw ? toAssetClassification(raw) : null };
  },
  all: (i) => {
    const profile = first(i.companyProfile);
    const shareClass = first(i.shareClass);
    const valuation = first(i.valuationRatios);
    const earningRatio = first(i.earningRatios);
    const classification = first(i.assetClassification);
    const scp = first(i.shareClassProfileHistory ?? i.shareClassProfile);
    const statement = first(i.financials);
    return {
      ...base(i),
      companyProfile: profile ? toCompanyProfile(profile) : null,
      shareClass: shareClass ? toShareClass(shareClass) : null,
      valuationRatios: valuation ? toValuationRatio(valuation) : null,
      operationRatios: latestOf(toOperationRatios(i.operationRatios)),
      earningReports: latestOf(toEarningReports(i.earningReports)),
      earningRatios: earningRatio ? toEarningRatio(earningRatio) : null,
      alphaBeta: asArray(i.alphaBeta).map(toAlphaBeta),
      assetClassification: classification ? toAssetClassification(classification) : null,
      shareClassProfile: scp ? toShareClassProfile(scp) : null,
      financials: statement ? toFinancialStatement(statement) : null,
      processingTimeMs: toNumber(i.processingTimeMillis),
    };
  },
};

function resultItems(body: UpstreamFundamentalsResponse): UpstreamFundamentalsItem[] {
  if (Array.isArray(body)) return body;
  if (body.result) return body.result;
  if (Array.isArray(body.data)) return body.data;
  const inData = body.data?.result;
  if (inData) return inData;
  // An `errors` list without a result (e.g. `unsupported_message_type` on earningReports) is an upstream failure.
  if (body.errors && body.errors.length > 0) {
    getLogger().error({ errors: body.errors.slice(0, 3) }, "upstream fundamentals reported errors");
    throw upstreamErrors.unexpected();
  }
  return [];
}

export function toFundamentalsItems<K extends V21Kind>(
  kind: K,
  body: UpstreamFundamentalsResponse,
): FundamentalsItem<K>[] {
  const mapper = itemMappers[kind] as (item: UpstreamFundamentalsItem) => FundamentalsItem<K>;
  return resultItems(body).map(mapper);
}

/** Parse + map a captured v2.1 body exactly as a live answer would be (tests, fixtures); throws when malformed. */
export function fundamentalsItemsFromBody<K extends V21Kind>(kind: K, body: unknown): FundamentalsItem<K>[] {
  return toFundamentalsItems(kind, upstreamFundamentalsResponseSchema.parse(body));
}

export function toBalanceSheetRow(raw: Obj, fallbackSymbol: string): BalanceSheetRow {
  const camel: Obj = Object.fromEntries(Object.entries(raw).map(([k, v]) => [snakeToCamel(k), v]));
  return {
    symbol: (toText(camel.symbol) ?? fallbackSymbol).toUpperCase(),
    fiscalYear: toInt(camel.fiscalYear),
    fiscalPeriod: toText(camel.fiscalPeriod),
    reportDate: toIsoDate(camel.reportDate),
    publishDate: toIsoDate(camel.publishDate),
    currency: toText(camel.currency),
    reportType: toText(camel.reportType),
    ...pickNumbers(camel, BALANCE_SHEET_NUMBER_KEYS),
  };
}

export function toBalanceSheetItems(body: UpstreamBalanceSheetResponse): FundamentalsItem<"balance-sheet">[] {
  return (body.data ?? []).map((entry) => {
    const symbol = (toText(entry.symbol) ?? "").toUpperCase();
    const sheet = entry.balance_sheet;
    const rows = Array.isArray(sheet) ? sheet : (sheet?.data ?? []);
    return { symbol, balanceSheet: rows.map((row) => toBalanceSheetRow(row, symbol)) };
  });
}

/** Parse + map a captured v3 body (tests, fixtures); throws when malformed. */
export function balanceSheetItemsFromBody(body: unknown): FundamentalsItem<"balance-sheet">[] {
  return toBalanceSheetItems(upstreamBalanceSheetResponseSchema.parse(body));
}
