import { describe, expect, it } from "vitest";
import { matchedParts } from "./matched-parts";

const rule = (matched: string[]) => ({
  ruleId: "1",
  kind: "keyword" as const,
  label: "x",
  matched,
  detail: null,
});

describe("matchedParts", () => {
  it("marks each matched word where the sentence says it, whole words only, across punctuation", () => {
    const parts = matchedParts({
      text: "Tariffs hit our supply-chain; antitariffs and tariffs again.",
      rules: [rule(["Tariffs", "tariffs"]), rule(["supply chain"])],
    });
    expect(parts.filter((p) => p.isMatch).map((p) => p.text)).toEqual(["Tariffs", "supply-chain", "tariffs"]);
    expect(parts.map((p) => p.text).join("")).toBe(
      "Tariffs hit our supply-chain; antitariffs and tariffs again.",
    );
  });

  it("leaves a sentence whole when nothing was matched by words (a sentiment or call-live rule)", () => {
    expect(matchedParts({ text: "Northwind (NWSC) is live", rules: [rule([])] })).toEqual([
      { text: "Northwind (NWSC) is live", isMatch: false },
    ]);
  });

  it("treats a matched word as text, never as a pattern", () => {
    expect(
      matchedParts({ text: "Costs (ex. fuel) rose.", rules: [rule(["ex. fuel", "(ex"])] })
        .filter((p) => p.isMatch)
        .map((p) => p.text),
    ).toEqual(["ex. fuel"]);
  });
});
