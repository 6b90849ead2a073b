/**
 * The documented wire dialect (`EMBEDDED_WIRE=documented`, docs/upstream.md §8): the contract's canonical bodies
 * rewritten into the shapes the real service's published reference shows, so the client is exercised against both.
 *
 * - Fundamentals: operation ratios and earning reports become flat records, one per period, their keys in
 *   `id: {companyId, asOf, period, reportType, aorRestate}`; ratio names lose their upper-case acronyms
 *   (`EBITDAMargin` → `ebitdaMargin`, `ROA` → `roa`) and take the reference's spellings (`fixAssetsTuronver`,
 *   `dilutedContEpsGrowth`); the share class says `currencyId`, `isPrimaryShare`, `isDepositaryReceipt` and an ISO
 *   `ipoDate`; statements carry `id`, `currencyId`, `periodEndingDate`, `isCalculated`, `fiscalYearEndChange`
 *   beside their line items; `/shareClassProfile` answers a `shareClassProfile` member; the combined answer holds an
 *   array per section plus `financials`.
 * - Calls: `call_title` is a headline, the formal title moves to `description`, `period` and `year` go; `audio=true`
 *   answers one `recording` whose links are relative to the base URL; segment times are millisecond strings.
 * Calendars, the v3 balance sheet, summaries and error bodies are the same in both dialects.
 */
import { documentedCall, documentedCallList } from "./documented-calls";

type Obj = Record<string, unknown>;

export const WIRE_DIALECTS = ["contract", "documented"] as const;
export type WireDialect = (typeof WIRE_DIALECTS)[number];

const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
const asObj = (v: unknown): Obj => (isObj(v) ? v : {});
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : isObj(v) ? [v] : []);

/** Ratio names the reference spells differently from the seed, beyond dropping upper-case acronyms. */
const DOCUMENTED_NAMES: Record<string, string> = {
  fixAssetTurnover: "fixAssetsTuronver",
  dilutedConstEpsGrowth: "dilutedContEpsGrowth",
  dilutedEPS: "dilutedEps",
  basicEPS: "basicEps",
  continuingAndDiscontinuedBasicEPS: "continuingAndDiscontinuedBasicEps",
  continuingAndDiscontinuedDilutedEPS: "continuingAndDiscontinuedDilutedEps",
};

/** `EBITDAMargin` → `ebitdaMargin`, `FCFSalesRatio` → `fcfSalesRatio`, `ROA` → `roa`; camelCase names pass. */
export function documentedName(key: string): string {
  const named = DOCUMENTED_NAMES[key];
  if (named) return named;
  const lead = /^[A-Z]+/.exec(key)?.[0];
  if (!lead) return key;
  // A run of capitals followed by a lower-case letter ends one letter early: that letter starts the next word.
  const cut = lead.length === key.length || lead.length === 1 ? lead.length : lead.length - 1;
  return key.slice(0, cut).toLowerCase() + key.slice(cut);
}

/** A fictional but stable Morningstar-style company id from the CIK. */
function companyIdOf(company: Obj): string {
  const cik = typeof company.cik === "string" ? company.cik : "";
  return `0C${cik.replace(/\D/g, "").slice(-8).padStart(8, "0")}`;
}

const fiscalYearEndNumber = (v: unknown) => (typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v);

/** One period's record of a period group, flat, with the documented `id`. */
function flatRecord(companyId: string, period: string, record: Obj, extra: Obj = {}): Obj {
  const { period: _p, asOf, reportType, currency, fiscalYearEnd, aorOrRestate, ...figures } = record;
  const out: Obj = {
    id: { companyId, asOf, period, reportType, aorRestate: aorOrRestate ?? "AOR" },
    ...(currency !== undefined ? { currencyId: currency } : {}),
    fiscalYearEnd: fiscalYearEndNumber(fiscalYearEnd),
    isCalculated: false,
    ...extra,
  };
  for (const [key, value] of Object.entries(figures)) out[documentedName(key)] = value;
  return out;
}

/** Period groups (newest first) → flat records, newest first, in each group's period order. */
function flattenGroups(companyId: string, groups: unknown): Obj[] {
  return list(groups).flatMap((group) =>
    Object.entries(group)
      .filter(([, value]) => isObj(value))
      .map(([period, value]) => flatRecord(companyId, period, value as Obj)),
  );
}

function earningRatio(record: Obj): Obj {
  const { id, ...rest } = record;
  const { aorOrRestate, ...idRest } = asObj(id);
  const out: Obj = { id: { ...idRest, aorRestate: aorOrRestate } };
  for (const [key, value] of Object.entries(rest)) out[documentedName(key)] = value;
  return out;
}

function shareClass(record: Obj): Obj {
  const { currency, isPrimary, isDepositaryRecipt, ipoDate, ...rest } = record;
  const seconds = typeof ipoDate === "string" || typeof ipoDate === "number" ? Number(ipoDate) : NaN;
  return {
    ...rest,
    currencyId: currency,
    ipoDate: Number.isFinite(seconds) ? new Date(seconds * 1000).toISOString().slice(0, 10) : ipoDate,
    isDepositaryReceipt: isDepositaryRecipt,
    isPrimaryShare: isPrimary,
  };
}

const STATEMENT_PARTS = ["balanceSheet", "incomeStatement", "cashFlowStatement"] as const;

/** A statement whose parts are the reference's records: metadata beside the line items. */
function statement(companyId: string, record: Obj): Obj {
  const { aorOrRestate, currency, fiscalYearEnd, ...rest } = record;
  const id = {
    companyId,
    asOf: record.asOf,
    period: record.period,
    reportType: record.reportType,
    aorRestate: aorOrRestate,
  };
  const out: Obj = { ...rest, aorRestate: aorOrRestate };
  for (const part of STATEMENT_PARTS) {
    out[part] = {
      id,
      currencyId: currency,
      fiscalYearEnd: fiscalYearEndNumber(fiscalYearEnd),
      fiscalYearEndChange: false,
      isCalculated: false,
      periodEndingDate: record.asOf,
      ...asObj(record[part]),
    };
  }
  return out;
}

/** Codes are numbers in the reference (the contract leaves their type open). */
function assetClassification(record: Obj): Obj {
  const out: Obj = { ...record };
  for (const key of ["msSectorCode", "msGroupCode", "msIndustryCode"]) {
    if (typeof out[key] === "string" && /^\d+$/.test(out[key])) out[key] = Number(out[key]);
  }
  return out;
}

type ItemRewrite = (item: Obj, companyId: string) => Obj;

function rewriteItems(body: unknown, rewrite: ItemRewrite): unknown {
  const root = asObj(body);
  const data = asObj(root.data);
  const inData = Array.isArray(data.result);
  const items = list(inData ? data.result : root.result);
  const result = items.map((item) => rewrite(item, companyIdOf(asObj(item.company))));
  return inData ? { ...root, data: { ...data, result } } : { ...root, result };
}

const SECTION_REWRITES: Record<string, ItemRewrite> = {
  "": (item, companyId) => {
    const { shareClassProfileHistory, ...rest } = item;
    return {
      ...rest,
      valuationRatios: list(item.valuationRatios),
      operationRatios: flattenGroups(companyId, item.operationRatios),
      earningReports: flattenGroups(companyId, item.earningReports),
      earningRatios: list(item.earningRatios).map(earningRatio),
      shareClass: isObj(item.shareClass) ? shareClass(item.shareClass) : item.shareClass,
      assetClassification: isObj(item.assetClassification)
        ? assetClassification(item.assetClassification)
        : item.assetClassification,
      shareClassProfile: shareClassProfileHistory ?? null,
      financials: list(item.financials).map((s) => statement(companyId, s)),
    };
  },
  "/operationRatios": (item, companyId) => ({
    ...item,
    operationRatios: flattenGroups(companyId, item.operationRatios),
  }),
  "/earningReports": (item, companyId) => ({
    ...item,
    earningReports: flattenGroups(companyId, item.earningReports),
  }),
  "/earningRatios": (item) => ({ ...item, earningRatios: list(item.earningRatios).map(earningRatio) }),
  "/financials": (item, companyId) => ({
    ...item,
    financials: list(item.financials).map((s) => statement(companyId, s)),
  }),
  "/shareClass": (item) => ({
    ...item,
    shareClass: isObj(item.shareClass) ? shareClass(item.shareClass) : null,
  }),
  "/shareClassProfile": (item) => {
    const { shareClassProfileHistory, ...rest } = item;
    return { ...rest, shareClassProfile: shareClassProfileHistory };
  },
  "/assetClassification": (item) => ({
    ...item,
    assetClassification: isObj(item.assetClassification)
      ? assetClassification(item.assetClassification)
      : item.assetClassification,
  }),
};

const FUNDAMENTALS = "/api/v2.1/fundamentals";
const CALLS = "/api/v1/transcripts/calls";

export interface WireContext {
  /** The service's REST base, e.g. `http://127.0.0.1:4010`: documented recording links are relative to it. */
  baseUrl: string;
}

/** The documented body of a successful JSON answer on `path`; bodies this dialect does not change pass as they are. */
export function toDocumentedBody(path: string, body: unknown, context: WireContext): unknown {
  if (path === FUNDAMENTALS || path.startsWith(`${FUNDAMENTALS}/`)) {
    const rewrite = SECTION_REWRITES[path.slice(FUNDAMENTALS.length)];
    return rewrite ? rewriteItems(body, rewrite) : body;
  }
  if (path === CALLS) return documentedCallList(body, context.baseUrl);
  if (path.startsWith(`${CALLS}/`) && path.split("/").length === 6)
    return documentedCall(body, context.baseUrl);
  return body;
}

/** The `EMBEDDED_WIRE` setting's transform for the request pipeline; undefined for the contract's dialect. */
export function wireTransform(
  dialect: WireDialect,
  baseUrl: () => string,
): ((path: string, body: unknown) => unknown) | undefined {
  if (dialect === "contract") return undefined;
  return (path, body) => toDocumentedBody(path, body, { baseUrl: baseUrl() });
}

/** The acknowledgment frame of a (un)subscription: plain text in the contract, a JSON string in the reference. */
export function ackFrame(dialect: WireDialect | undefined, text: string): string {
  return dialect === "documented" ? JSON.stringify(text) : text;
}
