import { describe, expect, it } from "vitest";
import { VALUATION_RATIO_KEYS, OPERATION_RATIO_KEYS, EARNING_RATIO_KEYS } from "@/lib/schemas/fundamentals";
import {
  ALL_RATIO_DEFINITIONS,
  bestAndWorst,
  humanizeKey,
  isLineItemTotal,
  lineItemLabel,
  ratioDefinition,
} from "./ratio-definitions";

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
    expect(bestAndWorst([10, 20, 15], false)).toEqual({ best: 0, worst: 1 });
    expect(bestAndWorst([0.1, 0.3, null], true)).toEqual({ best: 1, worst: 0 });
    expect(bestAndWorst([1, 1], true)).toEqual({ best: null, worst: null });
    expect(bestAndWorst([1, 2], null)).toEqual({ best: null, worst: null });
    expect(bestAndWorst([1, null], true)).toEqual({ best: null, worst: null });
  });
});

describe("lineItemLabel", () => {
  it("names the common line items and leaves any other under the service's own name", () => {
    expect(lineItemLabel("netPpe")).toBe("Net PP&E");
    expect(lineItemLabel("sellingGeneralAndAdministration")).toBe("Selling, general & administrative");
    expect(lineItemLabel("gainsLossesNotAffectingRetainedEarnings")).toBe(
      "gainsLossesNotAffectingRetainedEarnings",
    );
  });

  it("marks totals and key results", () => {
    expect(isLineItemTotal("totalAssets")).toBe(true);
    expect(isLineItemTotal("netIncome")).toBe(true);
    expect(isLineItemTotal("netIncomeCommonStockholders")).toBe(false);
    expect(isLineItemTotal("inventory")).toBe(false);
  });
});
