import { describe, expect, it } from "vitest";
import { VALUATION_RATIO_KEYS, OPERATION_RATIO_KEYS, EARNING_RATIO_KEYS } from "@/lib/schemas/fundamentals";
import {
  ALL_RATIO_DEFINITIONS,
  bestAndWorst,
  groupRatios,
  RATIO_GROUPS,
  humanizeKey,
  ratioDefinition,
} from "./ratio-definitions";
import { isLineItemTotal, lineItemLabel } from "./line-items";

describe("ratio definitions", () => {
  it("explain every ratio our API serves", () => {
    for (const key of [...VALUATION_RATIO_KEYS, ...OPERATION_RATIO_KEYS, ...EARNING_RATIO_KEYS]) {
      expect(ALL_RATIO_DEFINITIONS[key], key).toBeDefined();
    }
  });
  it("fall back to a readable label for unknown keys", () => {
    expect(ratioDefinition("totalCurrentAssets").label).toBe("Total current assets");
    expect(humanizeKey("ebitdaMargin")).toBe("EBITDA margin");
  });
  it("pick best and worst by the ratio's direction", () => {
    const lower = { kind: "multiple" as const, higherIsBetter: false };
    const higher = { kind: "fraction" as const, higherIsBetter: true };
    expect(bestAndWorst([10, 20, 15], lower)).toEqual({ best: [0], worst: [1], notMeaningful: [] });
    expect(bestAndWorst([0.1, 0.3, null], higher)).toEqual({ best: [1], worst: [0], notMeaningful: [] });
    expect(bestAndWorst([1, 1], higher)).toEqual({ best: [], worst: [], notMeaningful: [] });
    expect(bestAndWorst([1, 2], { kind: "number", higherIsBetter: null }).best).toEqual([]);
    expect(bestAndWorst([1, null], higher).best).toEqual([]);
  });

  it("never calls a negative multiple best: it is not meaningful", () => {
    const evEbitda = ratioDefinition("evToEbitda");
    expect(bestAndWorst([-35.2, 8.1, 12.4], evEbitda)).toEqual({ best: [1], worst: [2], notMeaningful: [0] });
    expect(bestAndWorst([-3, 8.1], evEbitda)).toEqual({ best: [], worst: [], notMeaningful: [0] });
    // A negative interest coverage is a real (bad) figure, not "n/m".
    expect(bestAndWorst([-2, 5], ratioDefinition("interestCoverage"))).toEqual({
      best: [1],
      worst: [0],
      notMeaningful: [],
    });
  });

  it("marks ties alike: two companies at the best value are both best", () => {
    const yieldDef = ratioDefinition("dividendYield");
    expect(bestAndWorst([0, 0.021, 0.021], yieldDef)).toEqual({
      best: [1, 2],
      worst: [0],
      notMeaningful: [],
    });
    expect(bestAndWorst([0, 0, 0.01], yieldDef)).toEqual({ best: [2], worst: [0, 1], notMeaningful: [] });
    // Equal as shown is equal: three companies all reading "0.0%" have no best and no worst.
    expect(bestAndWorst([0, 0.00004, 0.0002], yieldDef)).toEqual({ best: [], worst: [], notMeaningful: [] });
  });
});

describe("lineItemLabel", () => {
  it("names the common line items and reads any other as words (its raw name is shown on hover)", () => {
    expect(lineItemLabel("netPpe")).toBe("Net PP&E");
    expect(lineItemLabel("sellingGeneralAndAdministration")).toBe("Selling, general & administrative");
    expect(lineItemLabel("gainsLossesNotAffectingRetainedEarnings")).toBe(
      "Gains losses not affecting retained earnings",
    );
  });

  it("marks totals and key results", () => {
    expect(isLineItemTotal("totalAssets")).toBe(true);
    expect(isLineItemTotal("netIncome")).toBe(true);
    expect(isLineItemTotal("netIncomeCommonStockholders")).toBe(false);
    expect(isLineItemTotal("inventory")).toBe(false);
  });
});

describe("groupRatios", () => {
  it("puts the common multiples first and every key in one group, unknown ones last", () => {
    const groups = groupRatios([
      "payoutRatio",
      "quickRatio",
      "peRatio",
      "evToEbitda",
      "grossMargin",
      "mystery",
    ]);
    expect(groups.map((g) => [g.id, g.keys])).toEqual([
      ["valuation", ["peRatio", "evToEbitda"]],
      ["shareholder", ["payoutRatio"]],
      ["profitability", ["grossMargin"]],
      ["leverage", ["quickRatio"]],
      ["other", ["mystery"]],
    ]);
  });

  it("names every valuation and operation ratio the service sends in exactly one group", () => {
    const named = RATIO_GROUPS.flatMap((g) => g.keys);
    expect(new Set(named).size).toBe(named.length);
    for (const key of [...VALUATION_RATIO_KEYS, ...OPERATION_RATIO_KEYS, ...EARNING_RATIO_KEYS])
      expect(named, key).toContain(key);
  });
});

describe("lineItemLabel, every item the embedded service sends", () => {
  it("reads every statement line item as words, never the raw field name", () => {
    expect(lineItemLabel("reconciledCostOfRevenue")).toBe("Cost of revenue (reconciled)");
    expect(lineItemLabel("somethingNewEbitdaRoic")).toBe("Something new EBITDA ROIC");
  });
});
