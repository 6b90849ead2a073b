/**
 * The line items of a v2.1 `/financials` statement, named as the real service's reference names them (docs/upstream.md
 * §3): the model's figures plus the documented sub-totals and splits derived from them, so every identity a reader
 * may check holds exactly (integers throughout):
 * - assets: current + non-current = total; gross PP&E − accumulated depreciation = net; goodwill + other
 *   intangibles = goodwillAndOtherIntangibleAssets; the parts of each "other" item sum to the model's figure;
 * - liabilities + equity = total assets; current debt + long-term debt = total debt; net debt = total debt − cash;
 * - income: revenue − cost of revenue = gross profit; gross profit − operating expense = operating income;
 *   operating income − interest expense + other income = pretax income; pretax − tax = net income from
 *   continuing operations; EBIT + D&A = EBITDA;
 * - cash flow: the working-capital changes sum to `changeInWorkingCapital`; operating − capital expenditure = free
 *   cash flow; beginning cash + change = end cash.
 * Capital expenditure stays a positive amount spent (the contract's convention); its documented counterparts
 * (`purchaseOfPpe`, `netPpePurchaseAndSale`) carry the cash-flow sign.
 */
import type { PeriodStatement } from "../universe/fundamentals";

const part = (whole: number, share: number) => Math.round(whole * share);

export function balanceSheetItems(s: PeriodStatement) {
  const b = s.balance;
  const grossPpe = part(b.netPPE, 1.65);
  const land = part(grossPpe, 0.12);
  const machinery = part(grossPpe, 0.58);
  const accrued = part(b.otherCurrentLiabilities, 0.7);
  const deferredRevenue = part(b.otherCurrentLiabilities, 0.2);
  const deferredTaxes = part(b.otherNonCurrentLiabilities, 0.45);
  const nonCurrentDeferredRevenue = part(b.otherNonCurrentLiabilities, 0.1);
  const commercialPaper = part(b.currentDebt, 0.25);
  const commonStockEquity = b.stockholdersEquity;
  return {
    cashAndCashEquivalents: b.cashAndCashEquivalents,
    otherShortTermInvestments: b.shortTermInvestments,
    cashCashEquivalentsAndMarketableSecurities: b.cashAndCashEquivalents + b.shortTermInvestments,
    accountsReceivable: b.accountsReceivable,
    receivables: b.accountsReceivable,
    inventory: b.inventory,
    otherCurrentAssets: b.otherCurrentAssets,
    currentAssets: b.currentAssets,
    grossPpe,
    landAndImprovements: land,
    machineryFurnitureEquipment: machinery,
    otherProperties: grossPpe - land - machinery,
    accumulatedDepreciation: b.netPPE - grossPpe,
    netPpe: b.netPPE,
    goodwill: b.goodwill,
    otherIntangibleAssets: b.otherIntangibleAssets,
    goodwillAndOtherIntangibleAssets: b.goodwill + b.otherIntangibleAssets,
    investmentsAndAdvances: b.longTermInvestments,
    otherNonCurrentAssets: b.otherNonCurrentAssets,
    totalNonCurrentAssets: b.totalNonCurrentAssets,
    totalAssets: b.totalAssets,
    accountsPayable: b.accountsPayable,
    payables: b.accountsPayable,
    currentAccruedExpenses: accrued,
    payablesAndAccruedExpenses: b.accountsPayable + accrued,
    commercialPaper,
    otherCurrentBorrowings: b.currentDebt - commercialPaper,
    currentDebt: b.currentDebt,
    currentDebtAndCapitalLeaseObligation: b.currentDebt,
    currentDeferredRevenue: deferredRevenue,
    currentDeferredLiabilities: deferredRevenue,
    otherCurrentLiabilities: b.otherCurrentLiabilities - accrued - deferredRevenue,
    currentLiabilities: b.currentLiabilities,
    longTermDebt: b.longTermDebt,
    longTermDebtAndCapitalLeaseObligation: b.longTermDebt,
    nonCurrentDeferredTaxesLiabilities: deferredTaxes,
    nonCurrentDeferredRevenue,
    nonCurrentDeferredLiabilities: deferredTaxes + nonCurrentDeferredRevenue,
    otherNonCurrentLiabilities: b.otherNonCurrentLiabilities - deferredTaxes - nonCurrentDeferredRevenue,
    totalNonCurrentLiabilities: b.totalNonCurrentLiabilities,
    totalNonCurrentLiabilitiesNetMinorityInterest: b.totalNonCurrentLiabilities,
    totalLiabilities: b.totalLiabilities,
    totalLiabilitiesNetMinorityInterest: b.totalLiabilities,
    commonStock: b.commonStock,
    capitalStock: b.commonStock,
    retainedEarnings: b.retainedEarnings,
    stockholdersEquity: b.stockholdersEquity,
    commonStockEquity,
    totalEquity: b.stockholdersEquity,
    totalEquityGrossMinorityInterest: b.stockholdersEquity,
    totalLiabilitiesAndEquity: b.totalLiabilitiesAndEquity,
    totalDebt: b.totalDebt,
    netDebt: b.totalDebt - b.cashAndCashEquivalents,
    totalCapitalization: commonStockEquity + b.longTermDebt,
    investedCapital: commonStockEquity + b.totalDebt,
    workingCapital: b.workingCapital,
    tangibleBookValue: b.tangibleBookValue,
    netTangibleAssets: b.tangibleBookValue,
    shareIssued: b.sharesOutstanding,
    ordinarySharesNumber: b.sharesOutstanding,
  };
}

/** Per-share figures are the earning reports' business, not the statement's. */
export function incomeStatementItems(s: PeriodStatement) {
  const i = s.income;
  return {
    totalRevenue: i.totalRevenue,
    operatingRevenue: i.totalRevenue,
    costOfRevenue: i.costOfRevenue,
    reconciledCostOfRevenue: i.costOfRevenue,
    grossProfit: i.grossProfit,
    researchAndDevelopment: i.researchAndDevelopment,
    sellingGeneralAndAdministration: i.sellingGeneralAndAdministration,
    operatingExpense: i.operatingExpense,
    totalExpenses: i.costOfRevenue + i.operatingExpense,
    operatingIncome: i.operatingIncome,
    interestExpense: i.interestExpense,
    interestExpenseNonOperating: i.interestExpense,
    netNonOperatingInterestIncomeExpense: -i.interestExpense,
    otherIncomeExpense: i.otherIncomeExpense,
    pretaxIncome: i.pretaxIncome,
    taxProvision: i.taxProvision,
    netIncomeContinuousOperations: i.netIncomeContinuousOperations,
    netIncomeDiscontinuousOperations: i.netIncomeDiscontinuousOperations,
    netIncomeFromContinuingOperationNetMinorityInterest: i.netIncomeContinuousOperations,
    netIncomeFromContinuingAndDiscontinuedOperation: i.netIncome,
    netIncomeIncludingNoncontrollingInterests: i.netIncome,
    netIncome: i.netIncome,
    netIncomeCommonStockholders: i.netIncome,
    normalizedIncome: i.normalizedIncome,
    depreciationAndAmortization: i.depreciationAndAmortization,
    reconciledDepreciation: i.depreciationAndAmortization,
    ebit: i.ebit,
    ebitda: i.ebitda,
    normalizedEbitda: i.ebitda + (i.normalizedIncome - i.netIncome),
  };
}

export function cashFlowItems(s: PeriodStatement) {
  const c = s.cashFlow;
  const open = s.opening ?? s.balance;
  const end = s.balance;
  const changeInReceivables = open.accountsReceivable - end.accountsReceivable;
  const changeInInventory = open.inventory - end.inventory;
  const changeInPayable = end.accountsPayable - open.accountsPayable;
  const purchaseOfInvestment = Math.min(0, c.netInvestmentPurchaseAndSale);
  const netCommonStockIssuance = c.issuanceOfCapitalStock + c.repurchaseOfCapitalStock;
  const netLongTermDebtIssuance = c.netIssuancePaymentsOfDebt;
  return {
    netIncome: c.netIncome,
    netIncomeFromContinuingOperations: s.income.netIncomeContinuousOperations,
    depreciationAndAmortization: c.depreciationAndAmortization,
    depreciationAmortizationDepletion: c.depreciationAndAmortization,
    stockBasedCompensation: c.stockBasedCompensation,
    changeInReceivables,
    changesInAccountReceivables: changeInReceivables,
    changeInInventory,
    changeInPayable,
    changeInAccountPayable: changeInPayable,
    changeInPayablesAndAccruedExpense: changeInPayable,
    changeInOtherWorkingCapital:
      c.changeInWorkingCapital - changeInReceivables - changeInInventory - changeInPayable,
    changeInWorkingCapital: c.changeInWorkingCapital,
    otherNonCashItems:
      c.operatingCashFlow -
      c.netIncome -
      c.depreciationAndAmortization -
      c.stockBasedCompensation -
      c.changeInWorkingCapital,
    operatingCashFlow: c.operatingCashFlow,
    capitalExpenditure: c.capitalExpenditure,
    purchaseOfPpe: -c.capitalExpenditure,
    netPpePurchaseAndSale: -c.capitalExpenditure,
    purchaseOfInvestment,
    saleOfInvestment: c.netInvestmentPurchaseAndSale - purchaseOfInvestment,
    netInvestmentPurchaseAndSale: c.netInvestmentPurchaseAndSale,
    investingCashFlow: c.investingCashFlow,
    cashDividendsPaid: c.cashDividendsPaid,
    repurchaseOfCapitalStock: c.repurchaseOfCapitalStock,
    commonStockPayments: c.repurchaseOfCapitalStock,
    issuanceOfCapitalStock: c.issuanceOfCapitalStock,
    commonStockIssuance: c.issuanceOfCapitalStock,
    netCommonStockIssuance,
    netLongTermDebtIssuance,
    netIssuancePaymentsOfDebt: c.netIssuancePaymentsOfDebt,
    financingCashFlow: c.financingCashFlow,
    changesInCash: c.changesInCash,
    beginningCashPosition: c.beginningCashPosition,
    endCashPosition: c.endCashPosition,
    freeCashFlow: c.freeCashFlow,
  };
}
