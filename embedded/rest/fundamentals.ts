/**
 * Fundamentals v2.1 (docs/upstream.md §3): twelve read-only paths over the universe's financial model.
 *
 * Decisions where the contract is silent:
 * - `symbols` and `cik` together are a 400 (ambiguous selection); empty list items are ignored; duplicates are
 *   answered once.
 * - `asOf` cuts histories by their own date (month end, period end); the "latest" sections of the combined path and
 *   `/shareClass` are the newest entry on or after `asOf`, or null when there is none.
 * - `period=1Y` is an alias of `12M` on /financials and /earningReports; `reportType=R` lists periods that a later
 *   annual report re-presented (at least a year old), `P` the press-release periods (3M and 12M), `TTM` (as either
 *   parameter) the trailing-twelve-month statements.
 * - Only what was public at the request's time is returned: a period appears once its report time has passed.
 * - Asset classification codes are numbers, as in the real service's reference; statements carry its line items
 *   (`./statement-items`).
 */
import { z } from "zod";
import { badParameter, noDataFound } from "../core/api-error";
import type { EmbeddedRequest, JsonResult, RouteDef } from "../core/types";
import { internalsOf, type UniverseInternals } from "../universe/index";
import {
  asOfMs,
  fiscalToDate,
  quarterly,
  trailing,
  type CompanyFundamentals,
  type PeriodStatement,
} from "../universe/fundamentals";
import type { Quarter } from "../universe/model";
import { balanceSheetItems, cashFlowItems, incomeStatementItems } from "./statement-items";
import type { Company, Universe } from "../universe/types";

export const MAX_SYMBOLS = 200;

export interface Selected {
  company: Company;
  idType: "SYMBOL" | "CIK";
  id: string;
}

const listSchema = (name: string) =>
  z
    .string()
    .transform((v) => [
      ...new Set(
        v
          .split(",")
          .map((s) => s.trim())
          .filter((s) => s.length > 0),
      ),
    ])
    .refine((items) => items.length > 0, `${name} must list at least one value`)
    .refine((items) => items.length <= MAX_SYMBOLS, `${name} must list at most ${MAX_SYMBOLS} values`);

const dateSchema = (name: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${name} must be a date in YYYY-MM-DD format`)
    .refine((v) => {
      const d = new Date(`${v}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
    }, `${name} must be a valid calendar date`);

/** Throws the contract's 400 with the first zod issue's message. */
export function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw badParameter(result.error.issues[0]?.message ?? "invalid parameter");
  return result.data;
}

const optional = (query: URLSearchParams, name: string): string | undefined => query.get(name) ?? undefined;

/** Companies selected by `symbols` or `cik`; unknown ones are dropped, none known is a 404. */
export function selectCompanies(universe: Universe, query: URLSearchParams, allowCik = true): Selected[] {
  const symbols = optional(query, "symbols");
  const cik = allowCik ? optional(query, "cik") : undefined;
  if (symbols !== undefined && cik !== undefined) throw badParameter("use either symbols or cik, not both");
  if (symbols === undefined && cik === undefined)
    throw badParameter(allowCik ? "symbols or cik is required" : "symbols is required");
  const selected: Selected[] = [];
  const seen = new Set<Company>();
  if (symbols !== undefined) {
    for (const s of parseOrThrow(listSchema("symbols"), symbols)) {
      const company = universe.findCompany(s);
      if (company && !seen.has(company)) {
        seen.add(company);
        selected.push({ company, idType: "SYMBOL", id: s.toUpperCase() });
      }
    }
  } else {
    for (const c of parseOrThrow(listSchema("cik"), cik)) {
      const company = universe.findCompanyByCik(c);
      if (company && !seen.has(company)) {
        seen.add(company);
        selected.push({ company, idType: "CIK", id: c });
      }
    }
  }
  if (selected.length === 0) throw noDataFound();
  return selected;
}

const PERIODS = ["3M", "6M", "9M", "12M", "1Y", "ALL", "TTM"] as const;
const REPORT_TYPES = ["TTM", "A", "R", "P"] as const;
const periodSchema = z.enum(PERIODS, { error: `period must be one of ${PERIODS.join(", ")}` });
const reportTypeSchema = z.enum(REPORT_TYPES, {
  error: `reportType must be one of ${REPORT_TYPES.join(", ")}`,
});
export type ReportType = (typeof REPORT_TYPES)[number];

interface Ctx {
  req: EmbeddedRequest;
  nowMs: number;
  /** Inclusive lower bound on history dates (ms of the asOf date), -Infinity when absent. */
  fromMs: number;
  internals: UniverseInternals;
}

function parseCommon(
  req: EmbeddedRequest,
  universe: Universe,
  allowAsOf = true,
): { ctx: Ctx; selected: Selected[] } {
  const asOf = optional(req.query, "asOf");
  if (asOf !== undefined && !allowAsOf) throw badParameter("asOf is not supported on this path");
  const fromMs = asOfMs(asOf === undefined ? undefined : parseOrThrow(dateSchema("asOf"), asOf));
  const selected = selectCompanies(universe, req.query);
  return { ctx: { req, nowMs: req.now.getTime(), fromMs, internals: internalsOf(universe) }, selected };
}

const dateMs = (ymd: string) => Date.parse(`${ymd}T00:00:00Z`);

// ------------------------------------------------------------------ section builders

export const companyOf = (c: Company) => ({
  primarySymbol: c.symbol,
  primaryExchange: c.exchangeId,
  cik: c.cik,
  valoren: c.valoren,
  sedol: c.sedol,
  standardName: c.name,
});

const companyProfileOf = (c: Company) => ({
  companyStatus: "Active",
  countryId: c.headquarters.countryId,
  fiscalYearEnd: String(c.fiscalYearEndMonth),
  shortName: c.shortName,
  standardName: c.name,
  legalName: c.legalName,
  address1: c.headquarters.address1,
  city: c.headquarters.city,
  province: c.headquarters.province,
  postalCode: c.headquarters.postalCode,
  country: c.headquarters.country,
  phone: c.headquarters.phone,
  fax: c.headquarters.fax,
  homepage: c.homepage,
  shortDescription: c.shortDescription,
  longDescription: c.longDescription,
});

const assetClassificationOf = (c: Company, internals: UniverseInternals) => {
  const { sector, industry } = internals.entryOf(c);
  return {
    sic: c.sic,
    sicName: c.sicName,
    naics: c.naics,
    naicsName: c.naicsName,
    msSectorCode: Number(c.msSectorCode),
    msSectorName: sector.msSectorName,
    msGroupCode: Number(c.msGroupCode),
    msGroupName: industry.msGroupName,
    msIndustryCode: Number(c.msIndustryCode),
    msIndustryName: industry.msIndustryName,
  };
};

const fundamentalsOf = (ctx: Ctx, c: Company): CompanyFundamentals => ctx.internals.fundamentalsOf(c);

function valuationRatiosOf(ctx: Ctx, c: Company) {
  return fundamentalsOf(ctx, c)
    .valuation.filter((v) => v.ms <= ctx.nowMs && dateMs(v.date) >= ctx.fromMs)
    .map((v) => ({ id: { shareClassId: c.shareClassId, date: v.date }, ...v.values }));
}

function operationRatiosOf(ctx: Ctx, c: Company) {
  return fundamentalsOf(ctx, c)
    .operation.filter((o) => o.visibleMs <= ctx.nowMs && dateMs(o.asOf) >= ctx.fromMs)
    .map((o) => o.byPeriod);
}

function earningRatiosOf(ctx: Ctx, c: Company) {
  return fundamentalsOf(ctx, c)
    .earningRatios.filter((e) => e.visibleMs <= ctx.nowMs && dateMs(e.asOf) >= ctx.fromMs)
    .map((e) => ({
      id: {
        shareClassId: c.shareClassId,
        asOf: e.asOf,
        reportType: "A",
        period: e.period,
        aorOrRestate: "AOR",
      },
      fiscalYearEnd: c.fiscalYearEndMonth,
      dilutedEpsGrowth: e.dilutedEpsGrowth,
      dilutedConstEpsGrowth: e.dilutedConstEpsGrowth,
      dpsGrowth: e.dpsGrowth,
      equityPerShareGrowth: e.equityPerShareGrowth,
    }));
}

function alphaBetaOf(ctx: Ctx, c: Company) {
  return fundamentalsOf(ctx, c)
    .alphaBeta.filter((a) => a.ms <= ctx.nowMs && dateMs(a.asOf) >= ctx.fromMs)
    .map((a) => ({
      id: { shareClassId: c.shareClassId, asOf: a.asOf, period: a.period },
      alpha: a.alpha,
      beta: a.beta,
      nonDivAlpha: a.nonDivAlpha,
      nonDivBeta: a.nonDivBeta,
    }));
}

function shareClassProfileOf(ctx: Ctx, c: Company) {
  return fundamentalsOf(ctx, c)
    .profile.filter((p) => p.ms <= ctx.nowMs && dateMs(p.asOf) >= ctx.fromMs)
    .map((p) => ({
      asOf: p.asOf,
      marketCap: p.marketCap,
      enterpriseValue: p.enterpriseValue,
      sharesOutstanding: p.sharesOutstanding,
    }));
}

function shareClassOf(ctx: Ctx, c: Company) {
  const latest = shareClassProfileOf(ctx, c)[0];
  return {
    shareClassId: c.shareClassId,
    symbol: c.symbol,
    exchangeId: c.exchangeId,
    currency: c.currency,
    ipoDate: String(Math.floor(dateMs(c.ipoDate) / 1000)),
    isDepositaryRecipt: false,
    isPrimary: true,
    securityType: "Common Stock",
    enterpriseValue: latest?.enterpriseValue ?? null,
    marketCap: latest?.marketCap ?? null,
  };
}

// ------------------------------------------------------------------ statements (financials, earning reports)

interface StatementFilter {
  period: (typeof PERIODS)[number];
  reportType: ReportType;
}

/** The statements a (period, reportType) pair selects, newest first, visible at `now`, on or after `asOf`. */
export function statementsOf(
  ctx: Ctx,
  c: Company,
  filter: StatementFilter,
): { s: PeriodStatement; reportType: string; aor: string }[] {
  const model = ctx.internals.modelOf(c);
  const all = model.quarters;
  const ttmOnly = filter.period === "TTM" || filter.reportType === "TTM";
  const wanted = new Set<string>(
    filter.period === "ALL" ? ["3M", "6M", "9M", "12M"] : filter.period === "1Y" ? ["12M"] : [filter.period],
  );
  const out: { s: PeriodStatement; reportType: string; aor: string }[] = [];
  for (let i = all.length - 1; i >= 0; i--) {
    const q = all[i]!;
    if (q.reportMs > ctx.nowMs || q.endMs < ctx.fromMs) continue;
    if (ttmOnly) {
      const s = trailing(q, all);
      if (s) out.push({ s, reportType: "TTM", aor: "AOR" });
      continue;
    }
    if (filter.reportType === "R") {
      // Re-presented as comparatives in the next annual report, once that report is public.
      const nextAnnual = all.find(
        (x) => x.index > q.index + 3 && x.fiscalQuarter === 4 && x.fiscalYear === q.fiscalYear + 1,
      );
      if (!nextAnnual || nextAnnual.reportMs > ctx.nowMs) continue;
    }
    const candidates: PeriodStatement[] = [];
    if (wanted.has("3M")) candidates.push(quarterly(q, all));
    const ytd = q.fiscalQuarter > 1 ? fiscalToDate(q, all) : undefined;
    if (ytd && wanted.has(ytd.period)) candidates.push(ytd);
    for (const s of candidates) {
      if (filter.reportType === "P" && s.period !== "3M" && s.period !== "12M") continue;
      const aor = filter.reportType === "R" ? "RESTATE" : filter.reportType === "P" ? "PRELIMINARY" : "AOR";
      out.push({ s, reportType: filter.reportType, aor });
    }
  }
  return out;
}

function financialsOf(ctx: Ctx, c: Company, filter: StatementFilter) {
  return statementsOf(ctx, c, filter).map(({ s, reportType, aor }) => ({
    asOf: s.last.endDate,
    period: s.period,
    reportType,
    aorOrRestate: aor,
    currency: c.currency,
    fiscalYearEnd: String(c.fiscalYearEndMonth),
    balanceSheet: balanceSheetItems(s),
    cashFlowStatement: cashFlowItems(s),
    incomeStatement: incomeStatementItems(s),
  }));
}

function earningReportObj(c: Company, s: PeriodStatement, reportType: string, label: string) {
  const inc = s.income;
  const contBasic = Math.round((inc.netIncomeContinuousOperations / inc.basicAverageShares) * 100) / 100;
  const contDiluted = Math.round((inc.netIncomeContinuousOperations / inc.dilutedAverageShares) * 100) / 100;
  return {
    period: label,
    asOf: s.last.endDate,
    reportType,
    currency: c.currency,
    fiscalYearEnd: String(c.fiscalYearEndMonth),
    basicContinuousOperations: contBasic,
    continuingAndDiscontinuedBasicEPS: inc.basicEPS,
    continuingAndDiscontinuedDilutedEPS: inc.dilutedEPS,
    dilutedAverageShares: inc.dilutedAverageShares,
    dilutedContinuousOperations: contDiluted,
    dilutedEPS: inc.dilutedEPS,
    dividendPerShare: inc.dividendPerShare,
    basicAverageShares: inc.basicAverageShares,
  };
}

/** Earning reports grouped per period end, newest first: `{"3M": …, "6M": …, "12M": …}` as available. */
function earningReportsOf(ctx: Ctx, c: Company, filter: StatementFilter) {
  const groups = new Map<string, Record<string, ReturnType<typeof earningReportObj>>>();
  for (const { s, reportType } of statementsOf(ctx, c, filter)) {
    // Earning reports come as 3M, 6M and 12M (the seed's keys); 9M year-to-date figures are not reported.
    if (s.period === "9M") continue;
    const key = s.last.endDate;
    const group = groups.get(key) ?? {};
    group[s.period] = earningReportObj(c, s, reportType, s.period);
    groups.set(key, group);
  }
  return [...groups.values()];
}

// ------------------------------------------------------------------ routes

const item = (sel: Selected, section: Record<string, unknown>) => ({
  company: companyOf(sel.company),
  ...section,
  symbol: sel.company.symbol,
  idType: sel.idType,
  id: sel.id,
});

function parseStatementFilter(req: EmbeddedRequest): StatementFilter {
  return {
    period: parseOrThrow(periodSchema, optional(req.query, "period") ?? "ALL"),
    reportType: parseOrThrow(reportTypeSchema, optional(req.query, "reportType") ?? "A"),
  };
}

export function fundamentalsRoutes(universe: Universe): RouteDef[] {
  const BASE = "/api/v2.1/fundamentals";
  const simple = (
    path: string,
    build: (ctx: Ctx, sel: Selected) => Record<string, unknown>,
    options: { allowAsOf?: boolean } = {},
  ): RouteDef => ({
    method: "GET",
    pattern: `${BASE}${path}`,
    product: "fundamentals",
    handle: (req): JsonResult => {
      const { ctx, selected } = parseCommon(req, universe, options.allowAsOf ?? true);
      return { body: { result: selected.map((sel) => item(sel, build(ctx, sel))) } };
    },
  });

  return [
    {
      method: "GET",
      pattern: BASE,
      product: "fundamentals",
      handle: (req): JsonResult => {
        const { ctx, selected } = parseCommon(req, universe);
        const all = { period: "ALL", reportType: "A" } as const;
        return {
          body: {
            result: selected.map((sel) => {
              const started = performance.now();
              const c = sel.company;
              const section = {
                companyProfile: companyProfileOf(c),
                shareClass: shareClassOf(ctx, c),
                earningReports: earningReportsOf(ctx, c, all)[0] ?? null,
                valuationRatios: valuationRatiosOf(ctx, c)[0] ?? null,
                operationRatios: operationRatiosOf(ctx, c)[0] ?? null,
                alphaBeta: alphaBetaOf(ctx, c).slice(0, 2),
                earningRatios: earningRatiosOf(ctx, c)[0] ?? null,
                assetClassification: assetClassificationOf(c, ctx.internals),
                shareClassProfileHistory: shareClassProfileOf(ctx, c)[0] ?? null,
                // "All sections below" (docs/upstream.md §3) includes the statements: the latest one.
                financials: financialsOf(ctx, c, all)[0] ?? null,
              };
              return { ...item(sel, section), processingTimeMillis: Math.round(performance.now() - started) };
            }),
          },
        };
      },
    },
    simple("/valuationRatios", (ctx, sel) => ({ valuationRatios: valuationRatiosOf(ctx, sel.company) })),
    {
      method: "GET",
      pattern: `${BASE}/earningRatios`,
      product: "fundamentals",
      handle: (req): JsonResult => {
        const started = performance.now();
        const { ctx, selected } = parseCommon(req, universe);
        const result = selected.map((sel) => item(sel, { earningRatios: earningRatiosOf(ctx, sel.company) }));
        return { body: { result, processingTimeMillis: Math.round(performance.now() - started) } };
      },
    },
    simple("/operationRatios", (ctx, sel) => ({ operationRatios: operationRatiosOf(ctx, sel.company) })),
    {
      method: "GET",
      pattern: `${BASE}/financials`,
      product: "fundamentals",
      handle: (req): JsonResult => {
        const filter = parseStatementFilter(req);
        const { ctx, selected } = parseCommon(req, universe);
        return {
          body: {
            result: selected.map((sel) => item(sel, { financials: financialsOf(ctx, sel.company, filter) })),
          },
        };
      },
    },
    simple("/shareClass", (ctx, sel) => ({ shareClass: shareClassOf(ctx, sel.company) })),
    {
      method: "GET",
      pattern: `${BASE}/earningReports`,
      product: "fundamentals",
      handle: (req): JsonResult => {
        const filter = parseStatementFilter(req);
        const { ctx, selected } = parseCommon(req, universe);
        const result = selected.map((sel) =>
          item(sel, { earningReports: earningReportsOf(ctx, sel.company, filter) }),
        );
        return { body: { ok: true, errors: [], data: { result } } };
      },
    },
    simple("/alphaBeta", (ctx, sel) => ({ alphaBeta: alphaBetaOf(ctx, sel.company) })),
    simple("/company", () => ({})),
    simple("/companyProfile", (_ctx, sel) => ({ companyProfile: companyProfileOf(sel.company) })),
    simple("/shareClassProfile", (ctx, sel) => ({
      shareClassProfileHistory: shareClassProfileOf(ctx, sel.company),
    })),
    simple(
      "/assetClassification",
      (ctx, sel) => ({ assetClassification: assetClassificationOf(sel.company, ctx.internals) }),
      { allowAsOf: false },
    ),
  ];
}

export type { Quarter };
