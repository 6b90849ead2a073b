/**
 * Fundamentals derived from a company's model: the histories behind the v2.1 fundamentals and v3 balance-sheet
 * endpoints. Each history is computed once per company (lazily, then cached for the universe's lifetime) and holds
 * every period of the model; requests only cut it at `now` (what was public then) and at `asOf`.
 *
 * Conventions (the contract is silent on them):
 * - yields and margins are decimals (0.025 = 2.5%), growth rates are percent (12.5 = 12.5%);
 * - turnovers are annualised (revenue × 12 / months in the period), so `daysIn* = 365 / turnover` reads in days
 *   for any period length;
 * - a ratio whose denominator is zero, and every "null if negative" ratio of the seed, is `null`;
 * - numbers are rounded to 7 significant digits (identities hold to that precision).
 */
import type { CompanyEntry } from "./companies";
import type { BalanceSheet, CashFlowStatement, CompanyModel, IncomeStatement, Quarter } from "./model";
import { parseYmd } from "./time";

export type Num = number | null;

const POW10 = Array.from({ length: 40 }, (_, i) => 10 ** (i - 20));
/** Rounds to 7 significant digits (arithmetic, not `toPrecision`: this runs a million times per universe). */
const sig = (v: number): number => {
  if (v === 0 || !Number.isFinite(v)) return v;
  const scale = POW10[26 - Math.floor(Math.log10(Math.abs(v)))];
  return scale === undefined ? v : Math.round(v * scale) / scale;
};
const ratio = (a: number, b: number): Num => (b === 0 || !Number.isFinite(a / b) ? null : sig(a / b));
const positiveInverse = (yieldValue: Num): Num =>
  yieldValue === null || yieldValue <= 0 ? null : sig(1 / yieldValue);
const growthPct = (now: number, before: number): Num =>
  before === 0 ? null : sig(((now - before) / Math.abs(before)) * 100);
const avg = (xs: readonly number[]) => (xs.length === 0 ? 0 : xs.reduce((s, x) => s + x, 0) / xs.length);

// ---------------------------------------------------------------- periods

export type StatementPeriod = "3M" | "6M" | "9M" | "12M" | "TTM";

/** A statement over a span of consecutive quarters, ending at `last`. */
export interface PeriodStatement {
  period: StatementPeriod;
  last: Quarter;
  quarters: readonly Quarter[];
  /** Balance at the end of the quarter before the span (for averages); undefined at the model's start. */
  opening: BalanceSheet | undefined;
  income: IncomeStatement;
  cashFlow: CashFlowStatement;
  balance: BalanceSheet;
  months: number;
}

const SUMMED_INCOME: readonly (keyof IncomeStatement)[] = [
  "totalRevenue",
  "costOfRevenue",
  "grossProfit",
  "researchAndDevelopment",
  "sellingGeneralAndAdministration",
  "operatingExpense",
  "operatingIncome",
  "interestExpense",
  "otherIncomeExpense",
  "pretaxIncome",
  "taxProvision",
  "netIncomeContinuousOperations",
  "netIncomeDiscontinuousOperations",
  "netIncome",
  "normalizedIncome",
  "depreciationAndAmortization",
  "ebit",
  "ebitda",
  "dividendPerShare",
];
const SUMMED_CASH: readonly (keyof CashFlowStatement)[] = [
  "netIncome",
  "depreciationAndAmortization",
  "stockBasedCompensation",
  "changeInWorkingCapital",
  "operatingCashFlow",
  "capitalExpenditure",
  "netInvestmentPurchaseAndSale",
  "investingCashFlow",
  "cashDividendsPaid",
  "repurchaseOfCapitalStock",
  "issuanceOfCapitalStock",
  "netIssuancePaymentsOfDebt",
  "financingCashFlow",
  "changesInCash",
  "freeCashFlow",
];

function aggregate(
  period: StatementPeriod,
  quarters: readonly Quarter[],
  all: readonly Quarter[],
): PeriodStatement {
  const first = quarters[0]!;
  const last = quarters[quarters.length - 1]!;
  if (quarters.length === 1) {
    return {
      period,
      last,
      quarters,
      opening: all[first.index - 1]?.balance,
      income: last.income,
      cashFlow: last.cashFlow,
      balance: last.balance,
      months: 3,
    };
  }
  const income = { ...last.income };
  for (const key of SUMMED_INCOME) income[key] = quarters.reduce((s, q) => s + q.income[key], 0);
  income.dividendPerShare = Math.round(income.dividendPerShare * 100) / 100;
  income.basicAverageShares = Math.round(avg(quarters.map((q) => q.income.basicAverageShares)));
  income.dilutedAverageShares =
    income.netIncome > 0
      ? Math.round(avg(quarters.map((q) => q.income.dilutedAverageShares)))
      : income.basicAverageShares;
  income.basicEPS = Math.round((income.netIncome / income.basicAverageShares) * 100) / 100;
  income.dilutedEPS = Math.round((income.netIncome / income.dilutedAverageShares) * 100) / 100;
  const cashFlow = { ...last.cashFlow };
  for (const key of SUMMED_CASH) cashFlow[key] = quarters.reduce((s, q) => s + q.cashFlow[key], 0);
  cashFlow.beginningCashPosition = first.cashFlow.beginningCashPosition;
  cashFlow.endCashPosition = last.cashFlow.endCashPosition;
  return {
    period,
    last,
    quarters,
    opening: all[first.index - 1]?.balance,
    income,
    cashFlow,
    balance: last.balance,
    months: quarters.length * 3,
  };
}

/** Year-to-date statement (3M/6M/9M/12M by fiscal quarter) ending at quarter `q`. */
export function fiscalToDate(q: Quarter, all: readonly Quarter[]): PeriodStatement | undefined {
  const c = slot(q);
  if (c.ytd === undefined) c.ytd = computeFiscalToDate(q, all) ?? null;
  return c.ytd ?? undefined;
}

function computeFiscalToDate(q: Quarter, all: readonly Quarter[]): PeriodStatement | undefined {
  const n = q.fiscalQuarter;
  const quarters = all.slice(q.index - n + 1, q.index + 1);
  if (quarters.length !== n) return undefined;
  const period = (["3M", "6M", "9M", "12M"] as const)[n - 1]!;
  return aggregate(period, quarters, all);
}

/** Statements are immutable once built; caching them per quarter keeps the derived histories cheap. */
const cache = new WeakMap<
  Quarter,
  { q?: PeriodStatement; ttm?: PeriodStatement | null; ytd?: PeriodStatement | null }
>();
const slot = (q: Quarter) => {
  let c = cache.get(q);
  if (!c) cache.set(q, (c = {}));
  return c;
};

export const quarterly = (q: Quarter, all: readonly Quarter[]): PeriodStatement => {
  const c = slot(q);
  return (c.q ??= aggregate("3M", [q], all));
};

export function trailing(q: Quarter, all: readonly Quarter[]): PeriodStatement | undefined {
  if (q.index < 3) return undefined;
  const c = slot(q);
  if (c.ttm === undefined) c.ttm = aggregate("TTM", all.slice(q.index - 3, q.index + 1), all);
  return c.ttm ?? undefined;
}

/** The same span one year earlier (for growth rates). */
function yearEarlier(s: PeriodStatement, all: readonly Quarter[]): PeriodStatement | undefined {
  const prior = all[s.last.index - 4];
  if (!prior) return undefined;
  if (s.period === "TTM") return trailing(prior, all);
  if (s.period === "3M") return quarterly(prior, all);
  return fiscalToDate(prior, all);
}

// ---------------------------------------------------------------- histories

export interface ValuationPoint {
  date: string;
  ms: number;
  values: Record<string, Num>;
}

export interface OperationPoint {
  asOf: string;
  visibleMs: number;
  byPeriod: Record<string, Record<string, Num | string>>;
}

export interface EarningRatioPoint {
  asOf: string;
  visibleMs: number;
  period: "3M" | "1Y";
  dilutedEpsGrowth: Num;
  dilutedConstEpsGrowth: Num;
  dpsGrowth: Num;
  equityPerShareGrowth: Num;
}

export interface AlphaBetaPoint {
  asOf: string;
  ms: number;
  period: "36M" | "60M";
  alpha: number;
  beta: number;
  nonDivAlpha: number;
  nonDivBeta: number;
}

export interface ProfilePoint {
  asOf: string;
  ms: number;
  price: number;
  marketCap: number;
  enterpriseValue: number;
  sharesOutstanding: number;
}

export interface CompanyFundamentals {
  /** Newest first. */
  valuation: ValuationPoint[];
  operation: OperationPoint[];
  earningRatios: EarningRatioPoint[];
  alphaBeta: AlphaBetaPoint[];
  profile: ProfilePoint[];
}

const bvps = (q: Quarter) => q.balance.stockholdersEquity / q.income.dilutedAverageShares;
const tbvps = (q: Quarter) => q.balance.tangibleBookValue / q.income.dilutedAverageShares;
const wcps = (q: Quarter) => q.balance.workingCapital / q.balance.sharesOutstanding;
const enterpriseValue = (marketCap: number, b: BalanceSheet) =>
  marketCap + b.totalDebt - b.cashAndCashEquivalents - b.shortTermInvestments;

function valuationHistory(entry: CompanyEntry, model: CompanyModel): ValuationPoint[] {
  const all = model.quarters;
  const out: ValuationPoint[] = [];
  const peHistory: number[] = [];
  let prevPrice: number | undefined;
  for (const m of model.months) {
    const q = all[m.quarterIndex];
    const ttm = q ? trailing(q, all) : undefined;
    if (!q || !ttm || q.index < 20) {
      prevPrice = m.price;
      continue;
    }
    const P = m.price;
    const inc = ttm.income;
    const cf = ttm.cashFlow;
    const shares = inc.dilutedAverageShares;
    const epsTtm = ttm.quarters.reduce((s, x) => s + x.income.dilutedEPS, 0);
    const dpsTtm = ttm.quarters.reduce((s, x) => s + x.income.dividendPerShare, 0);
    const dpsNow = q.income.dividendPerShare;
    const ev = enterpriseValue(m.marketCap, q.balance);
    const openingEquity = all[q.index - 4]?.balance.stockholdersEquity ?? q.balance.stockholdersEquity;
    const roe = inc.netIncome / Math.max(1, (q.balance.stockholdersEquity + openingEquity) / 2);
    const forwardEps = all.slice(q.index + 1, q.index + 5).reduce((s, x) => s + x.epsEstimate, 0);
    const ltGrowth = Math.min(40, Math.max(1, entry.params.growth * 100 + 2));
    const salesPerShare = inc.totalRevenue / shares;
    const bookValuePerShare = bvps(q);
    const cfoPerShare = cf.operatingCashFlow / shares;
    const fcfPerShare = cf.freeCashFlow / shares;
    const earningYield = ratio(epsTtm, P);
    const salesYield = ratio(salesPerShare, P);
    const bookValueYield = ratio(bookValuePerShare, P);
    const cfYield = ratio(cfoPerShare, P);
    const fcfYield = ratio(fcfPerShare, P);
    const forwardEarningYield = ratio(forwardEps, P);
    const forwardPeRatio = positiveInverse(forwardEarningYield);
    const payoutRatio = ratio(dpsTtm, epsTtm);
    const peRatio = positiveInverse(earningYield);
    if (peRatio !== null) peHistory.push(peRatio);
    const g = ltGrowth / 100;
    const pegPayback = epsTtm > 0 ? sig(Math.log((P * g) / (epsTtm * (1 + g)) + 1) / Math.log(1 + g)) : null;
    const last12 = all.slice(Math.max(0, q.index - 11), q.index + 1);
    const last20 = all.slice(Math.max(0, q.index - 19), q.index + 1);
    const trailingDividendYield = ratio(dpsTtm, P);
    const buyBackYield = ratio(-cf.repurchaseOfCapitalStock - cf.issuanceOfCapitalStock, m.marketCap);
    const ebitdaPerShare = inc.ebitda / shares;
    const normalizedEps = inc.normalizedIncome / shares;
    const recentPe = peHistory.slice(-60);
    out.push({
      date: m.date,
      ms: m.ms,
      values: {
        payoutRatio,
        sustainableGrowthRate: sig(roe * (1 - (payoutRatio ?? 0))),
        cashReturn: ratio(cf.freeCashFlow, ev),
        salesPerShare: sig(salesPerShare),
        bookValuePerShare: sig(bookValuePerShare),
        cfoPerShare: sig(cfoPerShare),
        fcfPerShare: sig(fcfPerShare),
        earningYield,
        peRatio,
        salesYield,
        psRatio: positiveInverse(salesYield),
        bookValueYield,
        pbRatio: positiveInverse(bookValueYield),
        cfYield,
        pcfRatio: positiveInverse(cfYield),
        fcfYield,
        fcfRatio: positiveInverse(fcfYield),
        trailingDividendYield,
        forwardDividendYield: ratio(dpsNow * 4, P),
        forwardEarningYield,
        forwardPeRatio,
        pegRatio: forwardPeRatio === null ? null : sig(forwardPeRatio / ltGrowth),
        pegPayback,
        tangibleBookValuePerShare: sig(tbvps(q)),
        tangibleBvPerShare3YrAvg: sig(avg(last12.map(tbvps))),
        tangibleBvPerShare5YrAvg: sig(avg(last20.map(tbvps))),
        forwardDividend: sig(((dpsNow * 4) / P) * 100),
        workingCapitalPerShare: sig(wcps(q)),
        workingCapitalPerShare3YrAvg: sig(avg(last12.map(wcps))),
        workingCapitalPerShare5YrAvg: sig(avg(last20.map(wcps))),
        evToEbitda: ratio(ev, inc.ebitda),
        buyBackYield,
        totalYield: sig((trailingDividendYield ?? 0) + (buyBackYield ?? 0)),
        ratioPe5YearAverage: recentPe.length === 0 ? null : sig(avg(recentPe)),
        priceChange1M: prevPrice === undefined ? null : ratio(P - prevPrice, prevPrice),
        normalizedPeRatio: normalizedEps > 0 ? sig(P / normalizedEps) : null,
        pricetoEbitda: ebitdaPerShare > 0 ? sig(P / ebitdaPerShare) : null,
        dividendYield: trailingDividendYield,
      },
    });
    prevPrice = P;
  }
  return out.reverse();
}

/** The seed's OperationRatio fields (plus a few common ones after `quickRatio`) for one period statement. */
export function operationRatios(s: PeriodStatement, all: readonly Quarter[]): Record<string, Num> {
  const inc = s.income;
  const cf = s.cashFlow;
  const end = s.balance;
  const open = s.opening ?? end;
  const annual = 12 / s.months;
  const mean = (k: keyof BalanceSheet) => (end[k] + open[k]) / 2;
  const round4 = (v: number) => Math.round(v * 10_000) / 10_000;
  const days = (stock: number, flow: number) => (flow <= 0 ? 0 : round4((365 * stock) / (flow * annual)));
  const daysInInventory = days(mean("inventory"), inc.costOfRevenue);
  const daysInSales = days(mean("accountsReceivable"), inc.totalRevenue);
  const daysInPayment = days(mean("accountsPayable"), inc.costOfRevenue);
  const prior = yearEarlier(s, all);
  const growth = (pick: (x: PeriodStatement) => number) => (prior ? growthPct(pick(s), pick(prior)) : null);
  return {
    assetsTurnover: ratio(inc.totalRevenue * annual, mean("totalAssets")),
    capExSalesRatio: ratio(cf.capitalExpenditure, inc.totalRevenue),
    cashConversionCycle: round4(daysInInventory + daysInSales - daysInPayment),
    daysInInventory,
    daysInPayment,
    daysInSales,
    EBITDAMargin: ratio(inc.ebitda, inc.totalRevenue),
    EBITMargin: ratio(inc.ebit, inc.totalRevenue),
    FCFNetIncomeRatio: ratio(cf.freeCashFlow, inc.netIncome),
    FCFSalesRatio: ratio(cf.freeCashFlow, inc.totalRevenue),
    fixAssetTurnover: ratio(inc.totalRevenue * annual, mean("netPPE")),
    grossMargin: ratio(inc.totalRevenue - inc.costOfRevenue, inc.totalRevenue),
    interestCoverage: ratio(inc.ebit, inc.interestExpense),
    netIncomeContOpsGrowth: growth((x) => x.income.netIncomeContinuousOperations),
    netIncomeGrowth: growth((x) => x.income.netIncome),
    netMargin: ratio(inc.netIncome, inc.totalRevenue),
    normalizedNetProfitMargin: ratio(inc.normalizedIncome, inc.totalRevenue),
    operationIncomeGrowth: growth((x) => x.income.operatingIncome),
    operationMargin: ratio(inc.operatingIncome, inc.totalRevenue),
    operationRevenueGrowth3MonthAvg: growth((x) => x.income.totalRevenue),
    pretaxMargin: ratio(inc.pretaxIncome, inc.totalRevenue),
    quickRatio: ratio(
      end.cashAndCashEquivalents + end.shortTermInvestments + end.accountsReceivable,
      end.currentLiabilities,
    ),
    currentRatio: ratio(end.currentAssets, end.currentLiabilities),
    totalDebtEquityRatio: ratio(end.totalDebt, end.stockholdersEquity),
    ROA: ratio(inc.netIncome * annual, mean("totalAssets")),
    ROE: ratio(inc.netIncome * annual, mean("stockholdersEquity")),
    taxRate: ratio(inc.taxProvision, inc.pretaxIncome),
  };
}

function operationHistory(entry: CompanyEntry, model: CompanyModel): OperationPoint[] {
  const all = model.quarters;
  const fye = String(entry.company.fiscalYearEndMonth);
  const out: OperationPoint[] = [];
  for (const q of all) {
    if (q.index < 4) continue;
    const byPeriod: OperationPoint["byPeriod"] = {};
    const add = (key: string, s: PeriodStatement | undefined) => {
      if (!s) return;
      byPeriod[key] = {
        period: key,
        fiscalYearEnd: fye,
        reportType: "A",
        asOf: q.endDate,
        ...operationRatios(s, all),
      };
    };
    add("3M", quarterly(q, all));
    if (q.fiscalQuarter === 2) add("6M", fiscalToDate(q, all));
    if (q.fiscalQuarter === 3) add("9M", fiscalToDate(q, all));
    if (q.fiscalQuarter === 4) add("1Y", fiscalToDate(q, all));
    out.push({ asOf: q.endDate, visibleMs: q.reportMs, byPeriod });
  }
  return out.reverse();
}

function earningRatioHistory(model: CompanyModel): EarningRatioPoint[] {
  const all = model.quarters;
  const out: EarningRatioPoint[] = [];
  for (const q of all) {
    const prior = all[q.index - 4];
    if (!prior) continue;
    const entries: [EarningRatioPoint["period"], PeriodStatement | undefined, PeriodStatement | undefined][] =
      [["3M", quarterly(q, all), quarterly(prior, all)]];
    if (q.fiscalQuarter === 4) entries.push(["1Y", fiscalToDate(q, all), fiscalToDate(prior, all)]);
    for (const [period, cur, old] of entries) {
      if (!cur || !old) continue;
      const constEps = (s: PeriodStatement) =>
        s.income.netIncomeContinuousOperations / s.income.dilutedAverageShares;
      out.push({
        asOf: q.endDate,
        visibleMs: q.reportMs,
        period,
        dilutedEpsGrowth: growthPct(cur.income.dilutedEPS, old.income.dilutedEPS),
        dilutedConstEpsGrowth: growthPct(constEps(cur), constEps(old)),
        dpsGrowth: growthPct(cur.income.dividendPerShare, old.income.dividendPerShare),
        equityPerShareGrowth: growthPct(bvps(q), bvps(prior)),
      });
    }
  }
  return out.reverse();
}

function regress(ys: readonly number[], xs: readonly number[]): { alpha: number; beta: number } {
  const mx = avg(xs);
  const my = avg(ys);
  let cov = 0;
  let varx = 0;
  for (let i = 0; i < xs.length; i++) {
    cov += (xs[i]! - mx) * (ys[i]! - my);
    varx += (xs[i]! - mx) ** 2;
  }
  const beta = varx === 0 ? 0 : cov / varx;
  return { alpha: sig(my - beta * mx), beta: sig(beta) };
}

/**
 * Alpha and beta of monthly returns against the universe's market factor over 36 and 60 months. Alpha is the
 * monthly excess return (decimal); the plain pair uses total returns (dividends reinvested), `nonDiv*` price only.
 */
function alphaBetaHistory(model: CompanyModel): AlphaBetaPoint[] {
  const { months, marketLog } = model;
  const total: number[] = [];
  const priceOnly: number[] = [];
  const market: number[] = [];
  for (let i = 1; i < months.length; i++) {
    const a = months[i - 1]!;
    const b = months[i]!;
    total.push((b.price + b.dividend) / a.price - 1);
    priceOnly.push(b.price / a.price - 1);
    market.push(Math.exp(marketLog[i]! - marketLog[i - 1]!) - 1);
  }
  const out: AlphaBetaPoint[] = [];
  for (let i = 0; i < total.length; i++) {
    const m = months[i + 1]!;
    for (const [period, n] of [
      ["36M", 36],
      ["60M", 60],
    ] as const) {
      if (i + 1 < n) continue;
      const x = market.slice(i + 1 - n, i + 1);
      const withDiv = regress(total.slice(i + 1 - n, i + 1), x);
      const noDiv = regress(priceOnly.slice(i + 1 - n, i + 1), x);
      out.push({
        asOf: m.date,
        ms: m.ms,
        period,
        alpha: withDiv.alpha,
        beta: withDiv.beta,
        nonDivAlpha: noDiv.alpha,
        nonDivBeta: noDiv.beta,
      });
    }
  }
  return out.reverse();
}

function profileHistory(model: CompanyModel): ProfilePoint[] {
  return model.months
    .map((m) => {
      const q = model.quarters[m.quarterIndex]!;
      return {
        asOf: m.date,
        ms: m.ms,
        price: m.price,
        marketCap: m.marketCap,
        enterpriseValue: enterpriseValue(m.marketCap, q.balance),
        sharesOutstanding: m.sharesOutstanding,
      };
    })
    .reverse();
}

export function buildCompanyFundamentals(entry: CompanyEntry, model: CompanyModel): CompanyFundamentals {
  return {
    valuation: valuationHistory(entry, model),
    operation: operationHistory(entry, model),
    earningRatios: earningRatioHistory(model),
    alphaBeta: alphaBetaHistory(model),
    profile: profileHistory(model),
  };
}

/** Quarters whose report was public at `nowMs`, oldest first. */
export const reportedQuarters = (model: CompanyModel, nowMs: number): Quarter[] =>
  model.quarters.filter((q) => q.reportMs <= nowMs);

/** `asOf` (YYYY-MM-DD) as UTC-midnight ms, for comparisons with period-end dates. */
export const asOfMs = (asOf: string | undefined) => (asOf === undefined ? -Infinity : parseYmd(asOf));
