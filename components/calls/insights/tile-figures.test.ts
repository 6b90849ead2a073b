import { describe, expect, it } from "vitest";
import { computeInsights } from "@/lib/insights/engine";
import { CURRENT_CALL } from "@/test/fixtures/insights/calls";
import { headlineFigures } from "./tile-figures";

describe("headlineFigures", () => {
  it("takes the quarter's revenue and EPS and the next quarter's guidance, nothing else", () => {
    const { figures } = computeInsights({ sentences: CURRENT_CALL, isComplete: false }, null);
    expect(headlineFigures(figures).map(({ label, figure }) => [label, figure.value])).toEqual([
      ["Rev", 4_200_000_000],
      ["EPS", 1.99],
      ["Guide rev", 4_400_000_000],
    ]);
  });

  it("has nothing to show before a figure is stated", () => {
    expect(headlineFigures([])).toEqual([]);
  });
});
