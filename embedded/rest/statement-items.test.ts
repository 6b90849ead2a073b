import { describe, expect, it } from "vitest";
import { fiscalToDate, quarterly, type PeriodStatement } from "../universe/fundamentals";
import { buildUniverse, internalsOf } from "../universe/index";
import { balanceSheetItems, cashFlowItems, incomeStatementItems } from "./statement-items";

const universe = buildUniverse(424_242);
const internals = internalsOf(universe);

/** Quarterly and year-to-date statements of the first 25 companies: every identity must hold for each. */
function statements(): PeriodStatement[] {
  return universe.companies.slice(0, 25).flatMap((company) => {
    const all = internals.modelOf(company).quarters;
    return all
      .slice(4)
      .flatMap((q) => [quarterly(q, all), fiscalToDate(q, all)].filter((s) => s !== undefined));
  });
}

describe("documented statement line items", () => {
  const sample = statements();

  it("carry at least 60 distinct line items, all whole numbers", () => {
    const s = sample[0]!;
    const items = { ...balanceSheetItems(s), ...incomeStatementItems(s), ...cashFlowItems(s) };
    expect(Object.keys(items).length).toBeGreaterThanOrEqual(60);
    for (const [name, value] of Object.entries(items)) expect(Number.isInteger(value), name).toBe(true);
  });

  it("balance: the parts add up to the totals, and assets = liabilities + equity", () => {
    for (const s of sample) {
      const b = balanceSheetItems(s);
      expect(b.currentAssets + b.totalNonCurrentAssets).toBe(b.totalAssets);
      expect(b.totalLiabilities + b.totalEquity).toBe(b.totalAssets);
      expect(b.totalLiabilitiesAndEquity).toBe(b.totalAssets);
      expect(b.grossPpe + b.accumulatedDepreciation).toBe(b.netPpe);
      expect(b.landAndImprovements + b.machineryFurnitureEquipment + b.otherProperties).toBe(b.grossPpe);
      expect(b.goodwill + b.otherIntangibleAssets).toBe(b.goodwillAndOtherIntangibleAssets);
      expect(
        b.cashAndCashEquivalents +
          b.otherShortTermInvestments +
          b.receivables +
          b.inventory +
          b.otherCurrentAssets,
      ).toBe(b.currentAssets);
      expect(
        b.payables +
          b.currentAccruedExpenses +
          b.currentDebt +
          b.currentDeferredRevenue +
          b.otherCurrentLiabilities,
      ).toBe(b.currentLiabilities);
      expect(b.commercialPaper + b.otherCurrentBorrowings).toBe(b.currentDebt);
      expect(b.currentDebt + b.longTermDebt).toBe(b.totalDebt);
      expect(b.totalDebt - b.cashAndCashEquivalents).toBe(b.netDebt);
      expect(b.longTermDebt + b.nonCurrentDeferredLiabilities + b.otherNonCurrentLiabilities).toBe(
        b.totalNonCurrentLiabilities,
      );
      expect(b.currentAssets - b.currentLiabilities).toBe(b.workingCapital);
    }
  });

  it("income: gross profit, operating income, pretax and net income follow from their parts", () => {
    for (const s of sample) {
      const i = incomeStatementItems(s);
      expect(i.totalRevenue - i.costOfRevenue).toBe(i.grossProfit);
      expect(i.grossProfit - i.operatingExpense).toBe(i.operatingIncome);
      expect(i.operatingIncome - i.interestExpense + i.otherIncomeExpense).toBe(i.pretaxIncome);
      expect(i.pretaxIncome - i.taxProvision).toBe(i.netIncomeContinuousOperations);
      expect(i.ebit + i.depreciationAndAmortization).toBe(i.ebitda);
      expect(i.costOfRevenue + i.operatingExpense).toBe(i.totalExpenses);
    }
  });

  it("cash flow: working-capital changes, free cash flow and the cash position reconcile", () => {
    for (const s of sample) {
      const c = cashFlowItems(s);
      expect(
        c.changeInReceivables + c.changeInInventory + c.changeInPayable + c.changeInOtherWorkingCapital,
      ).toBe(c.changeInWorkingCapital);
      expect(
        c.netIncome +
          c.depreciationAndAmortization +
          c.stockBasedCompensation +
          c.changeInWorkingCapital +
          c.otherNonCashItems,
      ).toBe(c.operatingCashFlow);
      expect(c.operatingCashFlow - c.capitalExpenditure).toBe(c.freeCashFlow);
      expect(c.purchaseOfInvestment + c.saleOfInvestment).toBe(c.netInvestmentPurchaseAndSale);
      expect(c.beginningCashPosition + c.changesInCash).toBe(c.endCashPosition);
    }
  });
});
