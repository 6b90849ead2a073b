import { describe, expect, it } from "vitest";
import { estimateSyllables, integerWords, speakable, speakableTokens, yearWords } from "./speakable";

describe("speakable", () => {
  it("reads per-share money as dollars and cents", () => {
    expect(speakable("EPS of $1.99.")).toBe("E P S of one dollar and ninety-nine cents.");
    expect(speakable("$0.85")).toBe("eighty-five cents");
    expect(speakable("$12")).toBe("twelve dollars");
  });

  it("moves the currency after a scale word", () => {
    expect(speakable("Revenue was $4.2 billion, up")).toBe("Revenue was four point two billion dollars, up");
    expect(speakable("$300M and $4.25B")).toBe(
      "three hundred million dollars and four point two five billion dollars",
    );
  });

  it("reads percentages, signs, ranges, multiples and basis points", () => {
    expect(speakable("12%")).toBe("twelve percent");
    expect(speakable("-2% and +3.5%")).toBe("minus two percent and plus three point five percent");
    expect(speakable("$1.95-$2.05")).toBe("one dollar and ninety-five cents to two dollars and five cents");
    expect(speakable("3.4x, 40bps")).toBe("three point four times, forty basis points");
  });

  it("reads quarters, fiscal years and years in pairs", () => {
    expect(speakable("Q3 2026 results")).toBe("Q three twenty twenty-six results");
    expect(speakable("FY2026")).toBe("fiscal twenty twenty-six");
    expect(yearWords("2005")).toBe("two thousand five");
    expect(speakable("we shipped 2025 units")).toBe("we shipped two thousand twenty-five units");
  });

  it("spells large integers", () => {
    expect(integerWords("1250000")).toBe("one million two hundred fifty thousand");
    expect(speakable("1,250 people")).toBe("one thousand two hundred fifty people");
  });

  it("keeps one token per written word with its punctuation", () => {
    const tokens = speakableTokens("Thanks, operator. Revenue was $4.2 billion.");
    expect(tokens.map((t) => t.text)).toEqual(["Thanks,", "operator.", "Revenue", "was", "$4.2", "billion."]);
    expect(tokens[4]?.spoken).toBe("four point two");
    expect(tokens[5]?.spoken).toBe("billion dollars.");
  });

  it("estimates syllables of spoken words", () => {
    expect(estimateSyllables("revenue")).toBe(3);
    expect(estimateSyllables("four point two billion dollars")).toBe(7);
    expect(estimateSyllables("E P S")).toBe(3);
  });
});
