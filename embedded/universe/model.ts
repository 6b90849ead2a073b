/**
 * The quarterly financial model of one company: income statement, balance sheet, cash-flow statement, shares, EPS,
 * dividends, consensus estimates and the report schedule, over a fixed span of fiscal quarters (see MODEL_*), plus a
 * month-end price path. Everything is integers in USD (EPS and prices in cents precision), so identities are exact:
 * the balance sheet is rolled forward from the cash-flow statement, hence assets = liabilities + equity.
 *
 * The span is fixed (not relative to "now") so that the universe is identical whenever it is built; the service is
 * meant to run with a clock between MODEL_FIRST_YEAR + 4 and MODEL_LAST_YEAR − 1.
 */
import type { CompanyEntry } from "./companies";
import { createRng, type Rng } from "./prng";
import { easternToUtcMs } from "../../common/time/eastern";
import { DAY_MS, monthEnd, utcDate, weekday, ymd } from "./time";

export const MODEL_FIRST_YEAR = 2018;
export const MODEL_LAST_YEAR = 2034;
/** Revenue calibration point: `params.revenueRef` is the annual run-rate here. */
const REFERENCE_MS = utcDate(2026, 6, 30);
const YEAR_MS = 365.25 * DAY_MS;

export interface IncomeStatement {
  totalRevenue: number;
  costOfRevenue: number;
  grossProfit: number;
  researchAndDevelopment: number;
  sellingGeneralAndAdministration: number;
  operatingExpense: number;
  operatingIncome: number;
  interestExpense: number;
  otherIncomeExpense: number;
  pretaxIncome: number;
  taxProvision: number;
  netIncomeContinuousOperations: number;
  netIncomeDiscontinuousOperations: number;
  netIncome: number;
  normalizedIncome: number;
  depreciationAndAmortization: number;
  ebit: number;
  ebitda: number;
  basicAverageShares: number;
  dilutedAverageShares: number;
  basicEPS: number;
  dilutedEPS: number;
  dividendPerShare: number;
}

export interface BalanceSheet {
  cashAndCashEquivalents: number;
  shortTermInvestments: number;
  accountsReceivable: number;
  inventory: number;
  otherCurrentAssets: number;
  currentAssets: number;
  netPPE: number;
  goodwill: number;
  otherIntangibleAssets: number;
  longTermInvestments: number;
  otherNonCurrentAssets: number;
  totalNonCurrentAssets: number;
  totalAssets: number;
  accountsPayable: number;
  currentDebt: number;
  otherCurrentLiabilities: number;
  currentLiabilities: number;
  longTermDebt: number;
  otherNonCurrentLiabilities: number;
  totalNonCurrentLiabilities: number;
  totalLiabilities: number;
  commonStock: number;
  retainedEarnings: number;
  stockholdersEquity: number;
  totalLiabilitiesAndEquity: number;
  totalDebt: number;
  workingCapital: number;
  tangibleBookValue: number;
  sharesOutstanding: number;
}

export interface CashFlowStatement {
  netIncome: number;
  depreciationAndAmortization: number;
  stockBasedCompensation: number;
  changeInWorkingCapital: number;
  operatingCashFlow: number;
  /** Positive amount spent; freeCashFlow = operatingCashFlow − capitalExpenditure. */
  capitalExpenditure: number;
  netInvestmentPurchaseAndSale: number;
  investingCashFlow: number;
  cashDividendsPaid: number;
  repurchaseOfCapitalStock: number;
  issuanceOfCapitalStock: number;
  netIssuancePaymentsOfDebt: number;
  financingCashFlow: number;
  changesInCash: number;
  beginningCashPosition: number;
  endCashPosition: number;
  freeCashFlow: number;
}

export interface Quarter {
  index: number;
  fiscalYear: number;
  fiscalQuarter: 1 | 2 | 3 | 4;
  /** Period end, UTC midnight ms and YYYY-MM-DD. */
  endMs: number;
  endDate: string;
  /** Report date (New York) and time; `reportMs` is the UTC instant actuals become public. */
  reportDate: string;
  reportTime: string;
  reportMs: number;
  /** When the report date was first put on the calendar, and when the company confirmed it. */
  scheduledMs: number;
  confirmedMs: number;
  income: IncomeStatement;
  balance: BalanceSheet;
  cashFlow: CashFlowStatement;
  epsEstimate: number;
  revenueEstimate: number;
}

export interface MonthPoint {
  /** Month end, YYYY-MM-DD and UTC ms (end of that day). */
  date: string;
  ms: number;
  price: number;
  /** Price plus the dividends paid in the month, as a total-return factor base. */
  dividend: number;
  /** Index of the latest quarter reported on or before this month end; -1 when none. */
  quarterIndex: number;
  sharesOutstanding: number;
  marketCap: number;
}

export interface CompanyModel {
  quarters: Quarter[];
  months: MonthPoint[];
  /** Market factor log level per month (same for every company), aligned with `months`. */
  marketLog: number[];
}

const round2 = (v: number) => Math.round(v * 100) / 100;
const roundTo = (v: number, unit: number) => Math.round(v / unit) * unit;
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

interface QuarterSlot {
  fiscalYear: number;
  fiscalQuarter: 1 | 2 | 3 | 4;
  year: number;
  month: number;
}

function quarterSlots(fyeMonth: number): QuarterSlot[] {
  const slots: QuarterSlot[] = [];
  for (let year = MODEL_FIRST_YEAR; year <= MODEL_LAST_YEAR; year++) {
    for (let month = 1; month <= 12; month++) {
      const k = (((month - fyeMonth) % 12) + 12) % 12;
      if (k % 3 !== 0) continue;
      const fiscalQuarter = (k === 0 ? 4 : k / 3) as 1 | 2 | 3 | 4;
      slots.push({ fiscalYear: month <= fyeMonth ? year : year + 1, fiscalQuarter, year, month });
    }
  }
  return slots;
}

function schedule(rng: Rng, entry: CompanyEntry, endMs: number, fiscalQuarter: number) {
  const { params } = entry;
  const lag = (fiscalQuarter === 4 ? params.reportLagDaysQ4 : params.reportLagDays) + rng.int(-3, 3);
  let day = endMs + lag * DAY_MS;
  const wd = weekday(day);
  if (wd === 6) day += 2 * DAY_MS;
  else if (wd === 0) day += DAY_MS;
  else if (wd === 5 && rng.chance(0.75)) day -= DAY_MS;
  const reportTime = rng.chance(0.05)
    ? rng.pick(["07:00:00", "08:30:00", "16:05:00", "16:30:00"])
    : params.reportTime;
  const reportDate = ymd(day);
  const reportMs = easternToUtcMs(reportDate, reportTime);
  if (reportMs === null) throw new Error(`bad report time ${reportDate} ${reportTime}`);
  return {
    reportDate,
    reportTime,
    reportMs,
    scheduledMs: reportMs - rng.int(96, 130) * DAY_MS - rng.int(0, 86_399) * 1000,
    confirmedMs: reportMs - rng.int(12, 40) * DAY_MS - rng.int(0, 86_399) * 1000,
  };
}

/** Monthly log level of the whole market, shared by every company; zero at the reference month. */
export function marketFactor(seed: number, months: number): number[] {
  const rng = createRng(seed, "market");
  const out: number[] = [];
  let level = 0;
  for (let i = 0; i < months; i++) {
    level += 0.002 + 0.042 * rng.normal();
    out.push(level);
  }
  return out;
}

const monthCount = () => (MODEL_LAST_YEAR - MODEL_FIRST_YEAR + 1) * 12;
const monthIndexOf = (year: number, month: number) => (year - MODEL_FIRST_YEAR) * 12 + (month - 1);

export function buildCompanyModel(
  seed: number,
  entry: CompanyEntry,
  market: readonly number[],
): CompanyModel {
  const { company, sector, params } = entry;
  const p = sector.profile;
  const rng = createRng(seed, `model:${company.symbol}`);
  const est = createRng(seed, `estimates:${company.symbol}`);
  const sched = createRng(seed, `schedule:${company.symbol}`);
  const slots = quarterSlots(company.fiscalYearEndMonth);

  // Pass 1: revenue level walk, calibrated so that the level at the reference quarter is revenueRef.
  const walk: number[] = [];
  let w = 0;
  for (let i = 0; i < slots.length; i++) {
    w += p.revenueVol * rng.normal();
    walk.push(w);
  }
  const endTimes = slots.map((s) => monthEnd(s.year, s.month));
  let refIdx = endTimes.findIndex((t) => t >= REFERENCE_MS);
  if (refIdx < 0) refIdx = 0;
  const refWalk = walk[refIdx] ?? 0;
  const levels = endTimes.map(
    (t, i) =>
      params.revenueRef *
      (1 + params.growth) ** ((t - REFERENCE_MS) / YEAR_MS) *
      Math.exp((walk[i] ?? 0) - refWalk),
  );
  const sharesRef = (params.revenueRef * params.priceToSales) / params.referencePrice;
  const sharesAt = (t: number, noise: number) =>
    Math.round(sharesRef * (1 + params.shareChangeRate) ** ((t - REFERENCE_MS) / YEAR_MS) * (1 + noise));

  const quarters: Quarter[] = [];
  let prevShares = sharesAt(endTimes[0]! - 91 * DAY_MS, 0);
  let dps = 0;
  let ttmEpsAtFyStart = 0;
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i]!;
    const endMs = endTimes[i]!;
    const level = levels[i]!;
    const revenue = roundTo(
      (level / 4) * p.seasonality[slot.fiscalQuarter - 1]! * Math.exp(0.012 * rng.normal()),
      1000,
    );
    const gm = clamp(params.grossMargin + 0.008 * rng.normal(), 0.05, 0.95);
    const opm = Math.min(gm - 0.03, params.operatingMargin + 0.014 * rng.normal());
    const costOfRevenue = Math.round(revenue * (1 - gm));
    const grossProfit = revenue - costOfRevenue;
    const operatingIncome = Math.round(revenue * opm);
    const operatingExpense = grossProfit - operatingIncome;
    const researchAndDevelopment = Math.round(operatingExpense * p.rdShareOfOpex);
    const depreciationAndAmortization = Math.round(revenue * p.daToRevenue * (1 + 0.03 * rng.normal()));
    const interestExpense = Math.round((level * params.debtToRevenue * 0.045) / 4);
    const otherIncomeExpense = Math.round(revenue * 0.004 * rng.normal());
    const pretaxIncome = operatingIncome - interestExpense + otherIncomeExpense;
    const taxProvision = pretaxIncome > 0 ? Math.round(pretaxIncome * params.taxRate) : 0;
    const netIncomeContinuousOperations = pretaxIncome - taxProvision;
    const netIncomeDiscontinuousOperations = 0;
    const netIncome = netIncomeContinuousOperations + netIncomeDiscontinuousOperations;
    const unusual = rng.chance(0.2) ? Math.round(revenue * 0.01 * rng.normal()) : 0;
    const shares = sharesAt(endMs, 0.002 * rng.normal());
    const basicAverageShares = Math.round((prevShares + shares) / 2);
    // Anti-dilution: with a loss, potential shares would raise EPS, so diluted = basic (ASC 260).
    const dilutedAverageShares =
      netIncome > 0 ? Math.round(basicAverageShares * (1 + params.dilutionSpread)) : basicAverageShares;
    const basicEPS = round2(netIncome / basicAverageShares);
    const dilutedEPS = round2(netIncome / dilutedAverageShares);
    if (slot.fiscalQuarter === 1 && params.isPayer) {
      const ttm = quarters.slice(-4).reduce((s, q) => s + q.income.dilutedEPS, 0);
      const base = quarters.length >= 4 ? ttm : dilutedEPS * 4;
      const target = round2((Math.max(base, 0) * params.payoutRatio) / 4);
      // Dividends are sticky: raised at most ~12% a year, cut only when earnings collapse.
      dps =
        dps === 0
          ? Math.max(target, 0.01)
          : base < ttmEpsAtFyStart * 0.5
            ? Math.max(0.01, round2(dps * 0.5))
            : round2(clamp(target, dps, dps * 1.12));
      ttmEpsAtFyStart = base;
    }
    const surprise = est.chance(params.beatRate)
      ? est.range(0.01, 0.12)
      : est.chance(0.25)
        ? 0
        : -est.range(0.01, 0.16);
    const epsGap =
      surprise === 0
        ? 0
        : Math.sign(surprise) * Math.max(0.01, round2(Math.abs(dilutedEPS) * Math.abs(surprise)));
    const revSurprise = est.chance(0.66) ? est.range(0.002, 0.035) : -est.range(0.002, 0.04);
    quarters.push({
      index: i,
      fiscalYear: slot.fiscalYear,
      fiscalQuarter: slot.fiscalQuarter,
      endMs,
      endDate: ymd(endMs),
      ...schedule(sched, entry, endMs, slot.fiscalQuarter),
      income: {
        totalRevenue: revenue,
        costOfRevenue,
        grossProfit,
        researchAndDevelopment,
        sellingGeneralAndAdministration: operatingExpense - researchAndDevelopment,
        operatingExpense,
        operatingIncome,
        interestExpense,
        otherIncomeExpense,
        pretaxIncome,
        taxProvision,
        netIncomeContinuousOperations,
        netIncomeDiscontinuousOperations,
        netIncome,
        normalizedIncome: netIncome - unusual,
        depreciationAndAmortization,
        ebit: operatingIncome,
        ebitda: operatingIncome + depreciationAndAmortization,
        basicAverageShares,
        dilutedAverageShares,
        basicEPS,
        dilutedEPS,
        dividendPerShare: params.isPayer ? dps : 0,
      },
      balance: undefined as unknown as BalanceSheet,
      cashFlow: undefined as unknown as CashFlowStatement,
      epsEstimate: round2(dilutedEPS - epsGap),
      revenueEstimate: roundTo(revenue / (1 + revSurprise), revenue >= 5e9 ? 1e6 : 1e5),
    });
    quarters[i]!.balance = { sharesOutstanding: shares } as BalanceSheet;
    prevShares = shares;
  }

  // Pass 2: month-end prices from valuation (price-to-sales on reported TTM revenue) times sentiment and market.
  const months: MonthPoint[] = [];
  const pr = createRng(seed, `price:${company.symbol}`);
  let sentiment = 0;
  const refMonth = monthIndexOf(2026, 6);
  let qi = -1;
  for (let m = 0; m < monthCount(); m++) {
    const year = MODEL_FIRST_YEAR + Math.floor(m / 12);
    const month = (m % 12) + 1;
    const ms = monthEnd(year, month) + DAY_MS - 1;
    while (qi + 1 < quarters.length && quarters[qi + 1]!.reportMs <= ms) qi++;
    sentiment = 0.9 * sentiment + p.priceVol * pr.normal();
    if (qi < 0) continue;
    const reported = quarters.slice(Math.max(0, qi - 3), qi + 1);
    const ttmRevenue = (reported.reduce((s, q) => s + q.income.totalRevenue, 0) * 4) / reported.length;
    const sharesOutstanding = quarters[qi]!.balance.sharesOutstanding;
    const marketLog = (market[m] ?? 0) - (market[refMonth] ?? 0);
    const fair = (params.priceToSales * ttmRevenue) / sharesOutstanding;
    const price = Math.max(0.5, round2(fair * Math.exp(sentiment + params.beta * marketLog)));
    months.push({
      date: ymd(monthEnd(year, month)),
      ms,
      price,
      dividend: 0,
      quarterIndex: qi,
      sharesOutstanding,
      marketCap: Math.round(price * sharesOutstanding),
    });
  }
  const priceAt = (ms: number) => {
    let last = months[0]?.price ?? params.referencePrice;
    for (const point of months) {
      if (point.ms > ms) break;
      last = point.price;
    }
    return last;
  };
  for (const q of quarters) {
    const payMonth = months.find((pt) => pt.ms >= q.endMs);
    if (payMonth) payMonth.dividend = round2(payMonth.dividend + q.income.dividendPerShare);
  }

  // Pass 3: balance sheet and cash flow, rolled forward so the balance sheet always balances.
  const q0 = quarters[0]!;
  const level0 = levels[0]!;
  const cogsRate0 = q0.income.costOfRevenue / Math.max(1, q0.income.totalRevenue);
  let prev = {
    cash: Math.round(level0 * p.cashToRevenue * 0.7),
    sti: Math.round(level0 * p.cashToRevenue * 0.3),
    ar: Math.round((level0 * p.daysSales) / 365),
    inv: Math.round((level0 * cogsRate0 * p.daysInventory) / 365),
    oca: Math.round(level0 * 0.025),
    ppe: Math.round(level0 * p.ppeToRevenue),
    gw: Math.round(level0 * p.goodwillToRevenue),
    intang: Math.round(level0 * p.intangiblesToRevenue),
    onca: Math.round(level0 * 0.04),
    lti: 0,
    ap: Math.round((level0 * cogsRate0 * p.daysPayable) / 365),
    accr: Math.round(level0 * 0.05),
    debt: Math.round(level0 * params.debtToRevenue),
    oncl: Math.round(level0 * 0.06),
    commonStock: 0,
    retained: 0,
    shares: q0.balance.sharesOutstanding,
  };
  {
    const assets =
      prev.cash + prev.sti + prev.ar + prev.inv + prev.oca + prev.ppe + prev.gw + prev.intang + prev.onca;
    const liabilities = prev.ap + prev.accr + prev.debt + prev.oncl;
    const equity = assets - liabilities;
    // Opening equity split: paid-in capital vs retained earnings; a thin or negative equity is topped up with cash.
    const minEquity = Math.round(level0 * 0.25);
    if (equity < minEquity) prev.cash += minEquity - equity;
    const total = Math.max(equity, minEquity);
    prev.commonStock = Math.round(total * 0.45);
    prev.retained = total - prev.commonStock;
  }
  const bs = createRng(seed, `balance:${company.symbol}`);
  for (const q of quarters) {
    const inc = q.income;
    const annual = levels[q.index]!;
    const cogsRate = inc.costOfRevenue / Math.max(1, inc.totalRevenue);
    const ar = Math.round(((annual * p.daysSales) / 365) * (1 + 0.04 * bs.normal()));
    const inv = Math.round(((annual * cogsRate * p.daysInventory) / 365) * (1 + 0.04 * bs.normal()));
    const oca = Math.round(annual * 0.025);
    const onca = Math.round(annual * 0.04);
    const ap = Math.round(((annual * cogsRate * p.daysPayable) / 365) * (1 + 0.04 * bs.normal()));
    const accr = Math.round(annual * 0.05);
    const oncl = Math.round(annual * 0.06);
    const sti = Math.round(annual * p.cashToRevenue * 0.3);
    const amortization = Math.round(prev.intang * 0.015);
    const depreciation = inc.depreciationAndAmortization - amortization;
    const capex = Math.round(inc.totalRevenue * p.capexToRevenue * Math.exp(0.08 * bs.normal()));
    const ppe = Math.max(0, prev.ppe + capex - depreciation);
    const depreciationUsed = prev.ppe + capex - ppe;
    const sbc = Math.round(inc.totalRevenue * params.sbcToRevenue);
    const changeInWorkingCapital =
      -(ar - prev.ar) -
      (inv - prev.inv) -
      (oca - prev.oca) +
      (ap - prev.ap) +
      (accr - prev.accr) +
      (oncl - prev.oncl) -
      (onca - prev.onca);
    const da = depreciationUsed + amortization;
    const operatingCashFlow = inc.netIncome + da + sbc + changeInWorkingCapital;
    let netInvestment = -(sti - prev.sti);
    const shares = q.balance.sharesOutstanding;
    const price = priceAt(q.endMs);
    const dividends = Math.round(inc.dividendPerShare * prev.shares);
    const repurchase = shares < prev.shares ? Math.round((prev.shares - shares) * price) : 0;
    const issuance = shares > prev.shares ? Math.round((shares - prev.shares) * price * 0.97) : 0;
    const preFinancingCash =
      prev.cash + operatingCashFlow - capex + netInvestment - dividends - repurchase + issuance;
    const minCash = Math.round(annual * Math.max(0.03, p.cashToRevenue * 0.35));
    const targetDebt = annual * params.debtToRevenue;
    let netDebt = Math.round((targetDebt - prev.debt) * 0.15);
    if (preFinancingCash + netDebt < minCash) netDebt = minCash - preFinancingCash;
    if (prev.debt + netDebt < 0) netDebt = -prev.debt;
    const financingCashFlow = -dividends - repurchase + issuance + netDebt;
    // Cash beyond what operations need is invested in long-term securities, as cash-rich companies do.
    const maxCash = Math.round(annual * (p.cashToRevenue * 0.7 + 0.08));
    const excess = Math.max(0, preFinancingCash + netDebt - maxCash);
    const lti = prev.lti + excess;
    netInvestment -= excess;
    const investingCashFlow = -capex + netInvestment;
    const cash = prev.cash + operatingCashFlow + investingCashFlow + financingCashFlow;
    const debt = prev.debt + netDebt;
    const currentDebt = Math.round(debt * 0.12);
    const intang = prev.intang - amortization;
    const commonStock = prev.commonStock + sbc + issuance - repurchase;
    const retained = prev.retained + inc.netIncome - dividends;
    const currentAssets = cash + sti + ar + inv + oca;
    const totalNonCurrentAssets = ppe + prev.gw + intang + lti + onca;
    const currentLiabilities = ap + currentDebt + accr;
    const totalNonCurrentLiabilities = debt - currentDebt + oncl;
    const equity = commonStock + retained;
    inc.depreciationAndAmortization = da;
    inc.ebitda = inc.operatingIncome + da;
    q.balance = {
      cashAndCashEquivalents: cash,
      shortTermInvestments: sti,
      accountsReceivable: ar,
      inventory: inv,
      otherCurrentAssets: oca,
      currentAssets,
      netPPE: ppe,
      goodwill: prev.gw,
      otherIntangibleAssets: intang,
      longTermInvestments: lti,
      otherNonCurrentAssets: onca,
      totalNonCurrentAssets,
      totalAssets: currentAssets + totalNonCurrentAssets,
      accountsPayable: ap,
      currentDebt,
      otherCurrentLiabilities: accr,
      currentLiabilities,
      longTermDebt: debt - currentDebt,
      otherNonCurrentLiabilities: oncl,
      totalNonCurrentLiabilities,
      totalLiabilities: currentLiabilities + totalNonCurrentLiabilities,
      commonStock,
      retainedEarnings: retained,
      stockholdersEquity: equity,
      totalLiabilitiesAndEquity: currentLiabilities + totalNonCurrentLiabilities + equity,
      totalDebt: debt,
      workingCapital: currentAssets - currentLiabilities,
      tangibleBookValue: equity - prev.gw - intang,
      sharesOutstanding: shares,
    };
    q.cashFlow = {
      netIncome: inc.netIncome,
      depreciationAndAmortization: da,
      stockBasedCompensation: sbc,
      changeInWorkingCapital,
      operatingCashFlow,
      capitalExpenditure: capex,
      netInvestmentPurchaseAndSale: netInvestment,
      investingCashFlow,
      cashDividendsPaid: -dividends,
      repurchaseOfCapitalStock: -repurchase,
      issuanceOfCapitalStock: issuance,
      netIssuancePaymentsOfDebt: netDebt,
      financingCashFlow,
      changesInCash: cash - prev.cash,
      beginningCashPosition: prev.cash,
      endCashPosition: cash,
      freeCashFlow: operatingCashFlow - capex,
    };
    prev = {
      cash,
      sti,
      ar,
      inv,
      oca,
      ppe,
      gw: prev.gw,
      intang,
      onca,
      lti,
      ap,
      accr,
      debt,
      oncl,
      commonStock,
      retained,
      shares,
    };
  }
  return {
    quarters,
    months,
    marketLog: months.map((pt) => market[monthIndexOf(+pt.date.slice(0, 4), +pt.date.slice(5, 7))] ?? 0),
  };
}
