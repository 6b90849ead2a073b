import { describe, expect, it } from "vitest";
import { fundamentalsItemSchemas, type FundamentalsKind } from "@/lib/schemas/fundamentals";
import { balanceSheetItemsFromBody, fundamentalsItemsFromBody } from ".";
import all from "@/test/fixtures/upstream/all.json";
import alphaBeta from "@/test/fixtures/upstream/alpha-beta.json";
import assetClassification from "@/test/fixtures/upstream/asset-classification.json";
import balanceSheet from "@/test/fixtures/upstream/balance-sheet.json";
import companyProfile from "@/test/fixtures/upstream/company-profile.json";
import company from "@/test/fixtures/upstream/company.json";
import earningRatios from "@/test/fixtures/upstream/earning-ratios.json";
import earningReports from "@/test/fixtures/upstream/earning-reports.json";
import financials from "@/test/fixtures/upstream/financials.json";
import operationRatios from "@/test/fixtures/upstream/operation-ratios.json";
import shareClassProfile from "@/test/fixtures/upstream/share-class-profile.json";
import shareClass from "@/test/fixtures/upstream/share-class.json";
import valuationRatios from "@/test/fixtures/upstream/valuation-ratios.json";

type V21 = Exclude<FundamentalsKind, "balance-sheet">;

/** Maps a fixture and checks the result against our published app schema. */
function mapped<K extends V21>(kind: K, body: unknown) {
  const items = fundamentalsItemsFromBody(kind, body);
  for (const item of items) expect(fundamentalsItemSchemas[kind].parse(item)).toEqual(item);
  return items;
}

describe("fundamentals mappers", () => {
  it("valuation ratios: numbers, nulls, and the upper-case key variants (PERatio, PBRatio, FCFYield)", () => {
    const [item] = mapped("valuation-ratios", valuationRatios);
    expect(item?.symbol).toBe("NWSC");
    expect(item?.company.cik).toBe("0000123456");
    expect(item?.valuationRatios[0]).toMatchObject({
      shareClassId: "0P000003RE",
      date: "2026-01-31",
      peRatio: 24.5,
      pbRatio: null,
      evToEbitda: 18.2,
      psRatio: null,
    });
    expect(item?.valuationRatios[1]).toMatchObject({ peRatio: 23.1, pbRatio: 7.9, fcfYield: 0.03 });
  });

  it("operation ratios: flattens period groups newest first, EBITDAMargin → ebitdaMargin, unknown numbers in other", () => {
    const [item] = mapped("operation-ratios", operationRatios);
    expect(item?.operationRatios.map((r) => [r.asOf, r.period])).toEqual([
      ["2025-12-31", "3M"],
      ["2025-12-31", "1Y"],
      ["2025-09-30", "3M"],
    ]);
    const yearly = item?.operationRatios[1];
    expect(yearly).toMatchObject({ ebitdaMargin: 0.38, cashConversionCycle: 75, roe: 0.31, netMargin: null });
    expect(yearly?.other).toEqual({ assetTurnoverExtra: 1.2 });
  });

  it("earning ratios: id fields lifted, decimal strings read", () => {
    const [item] = mapped("earning-ratios", earningRatios);
    expect(item?.earningRatios[0]).toEqual({
      shareClassId: "0P000003RE",
      asOf: "2025-12-31",
      reportType: "A",
      period: "12M",
      aorOrRestate: "AOR",
      fiscalYearEnd: 12,
      dilutedEpsGrowth: 12.5,
      dilutedConstEpsGrowth: 11.9,
      dpsGrowth: 5,
      equityPerShareGrowth: 8.25,
      other: {},
    });
  });

  it("earning reports: reads the {ok, errors, data: {result}} envelope and flattens periods", () => {
    const [item] = mapped("earning-reports", earningReports);
    expect(item?.earningReports.map((r) => [r.asOf, r.period, r.dilutedEps])).toEqual([
      ["2025-12-31", "3M", 1.99],
      ["2025-12-31", "12M", 7.12],
      ["2025-09-30", "3M", 1.8],
    ]);
    expect(item?.earningReports[1]).toMatchObject({
      dilutedAverageShares: 15100000000,
      basicAverageShares: null,
    });
  });

  it("earning reports: an errors list without a result is an upstream failure (502)", () => {
    const body = {
      ok: false,
      errors: [{ code: "unsupported_message_type", id: "x", value: "boom" }],
      data: {},
    };
    expect(() => fundamentalsItemsFromBody("earning-reports", body)).toThrow(
      expect.objectContaining({ status: 502 }) as Error,
    );
  });

  it("financials: line items as numbers, empty strings as null", () => {
    const [item] = mapped("financials", financials);
    const statement = item?.financials[0];
    expect(statement?.balanceSheet).toEqual({
      totalAssets: 350000000000,
      currentAssets: 140000000000,
      stockholdersEquity: 62000000000,
    });
    expect(statement?.incomeStatement.ebitda).toBeNull();
    expect(statement?.cashFlowStatement.capitalExpenditure).toBe(-9000000000);
  });

  it("share class: fixes the isDepositaryRecipt spelling, reads Unix-second IPO dates and string booleans", () => {
    const [item] = mapped("share-class", shareClass);
    expect(item?.shareClass).toMatchObject({
      isDepositaryReceipt: false,
      isPrimary: true,
      ipoDate: "1980-12-12",
      marketCap: 3050000000000,
    });
  });

  it("share class profile history, alpha/beta, company, profile, classification", () => {
    expect(mapped("share-class-profile", shareClassProfile)[0]?.shareClassProfile[1]).toEqual({
      asOf: "2025-12-31",
      marketCap: 2990000000000,
      enterpriseValue: null,
      sharesOutstanding: 15010000000,
    });
    expect(mapped("alpha-beta", alphaBeta)[0]?.alphaBeta[1]).toMatchObject({
      period: "60M",
      beta: 1.25,
      nonDivBeta: null,
    });
    const companies = mapped("company", company);
    expect(companies.map((c) => c.symbol)).toEqual(["NWSC", "BRKX"]);
    expect(companies[0]?.company.valoren).toBeNull();
    expect(mapped("company-profile", companyProfile)[0]?.companyProfile).toMatchObject({
      city: "San Jose",
      fax: null,
    });
    expect(mapped("asset-classification", assetClassification)[0]?.assetClassification?.msSectorName).toBe(
      "Technology",
    );
  });

  it("all: latest of each section, period-keyed objects flattened, missing sections null", () => {
    const [item] = mapped("all", all);
    expect(item?.valuationRatios?.peRatio).toBe(24.5);
    expect(item?.earningReports.map((r) => r.period)).toEqual(["3M", "12M"]);
    expect(item?.operationRatios[0]?.grossMargin).toBe(0.61);
    expect(item?.shareClassProfile?.sharesOutstanding).toBe(15000000000);
    expect(item?.companyProfile?.homepage).toBeNull();
    expect(item?.processingTimeMs).toBe(42);
  });

  it("an empty result maps to no items", () => {
    expect(fundamentalsItemsFromBody("company", { result: [] })).toEqual([]);
    expect(fundamentalsItemsFromBody("company", [])).toEqual([]);
  });
});

describe("balance sheet v3 mapper", () => {
  it("accepts ok as the string 'true' and maps snake_case rows to camelCase numbers", () => {
    const items = balanceSheetItemsFromBody(balanceSheet);
    for (const item of items) expect(fundamentalsItemSchemas["balance-sheet"].parse(item)).toEqual(item);
    expect(items[0]?.symbol).toBe("NWSC");
    expect(items[0]?.balanceSheet[0]).toMatchObject({
      fiscalYear: 2025,
      fiscalPeriod: "Q4",
      reportDate: "2025-12-31",
      cashAndCashEquivalents: 29943000000,
      totalAssets: 352583000000,
      goodwill: null,
      inventories: null,
    });
    expect(items[0]?.balanceSheet[1]?.fiscalYear).toBe(2025);
  });

  it("tolerates balance_sheet as a bare row array", () => {
    const items = balanceSheetItemsFromBody({
      ok: true,
      data: [{ symbol: "X", balance_sheet: [{ total_assets: 5 }] }],
    });
    expect(items[0]?.balanceSheet[0]).toMatchObject({ symbol: "X", totalAssets: 5 });
  });
});
