import { describe, expect, it } from "vitest";
import {
  closestSegmentIndex,
  findMatches,
  matchesBySegment,
  segmentIndexAt,
  splitHighlights,
  stepMatch,
} from "./transcript-search";

const seg = (text: string, startMs = 0, endMs = 0) => ({ text, startMs, endMs });

describe("findMatches", () => {
  it("finds every occurrence, case- and accent-insensitively, in reading order", () => {
    const segments = [seg("Revenue grew; revenue beat."), seg("No match here"), seg("Café REVENUE")];
    const matches = findMatches(segments, "revenue");
    expect(matches).toEqual([
      { segmentIndex: 0, start: 0, end: 7 },
      { segmentIndex: 0, start: 14, end: 21 },
      { segmentIndex: 2, start: 5, end: 12 },
    ]);
    expect(findMatches(segments, "cafe")).toEqual([{ segmentIndex: 2, start: 0, end: 4 }]);
  });

  it("finds nothing for queries shorter than two characters or blank", () => {
    expect(findMatches([seg("a b c")], "a")).toEqual([]);
    expect(findMatches([seg("a b c")], "   ")).toEqual([]);
  });

  it("stops at the limit", () => {
    expect(findMatches([seg("ab ab ab ab")], "ab", 2)).toHaveLength(2);
  });
});

describe("splitHighlights", () => {
  it("splits a text around its matches, each tagged with its overall index", () => {
    const text = "Margins up, margins down";
    const matches = matchesBySegment(findMatches([seg(text)], "margins")).get(0)!;
    expect(splitHighlights(text, matches)).toEqual([
      { text: "Margins", matchIndex: 0 },
      { text: " up, ", matchIndex: null },
      { text: "margins", matchIndex: 1 },
      { text: " down", matchIndex: null },
    ]);
  });

  it("returns the whole text when nothing matches", () => {
    expect(splitHighlights("plain", [])).toEqual([{ text: "plain", matchIndex: null }]);
  });
});

describe("stepMatch", () => {
  it("wraps around in both directions and starts at the ends", () => {
    expect(stepMatch(-1, 3, 1)).toBe(0);
    expect(stepMatch(-1, 3, -1)).toBe(2);
    expect(stepMatch(2, 3, 1)).toBe(0);
    expect(stepMatch(0, 3, -1)).toBe(2);
    expect(stepMatch(0, 0, 1)).toBe(-1);
  });
});

describe("segmentIndexAt", () => {
  const segments = [seg("a", 0, 1000), seg("b", 1500, 3000), seg("c", 3000, 4000)];
  it("finds the sentence being heard, keeping the previous one marked in a pause", () => {
    expect(segmentIndexAt(segments, 500)).toBe(0);
    expect(segmentIndexAt(segments, 1200)).toBe(0);
    expect(segmentIndexAt(segments, 3000)).toBe(2);
    expect(segmentIndexAt(segments, 99_000)).toBe(2);
  });
  it("is -1 before the first sentence or without sentences", () => {
    expect(segmentIndexAt([seg("a", 500, 900)], 100)).toBe(-1);
    expect(segmentIndexAt([], 100)).toBe(-1);
  });
});

describe("closestSegmentIndex", () => {
  const segments = [
    seg("Good afternoon and welcome to the call."),
    seg("Revenue rose 12% to $4.2 billion on strong cloud demand."),
    seg("We expect gross margin to compress next quarter because of freight costs."),
  ];
  it("links a summary point to the sentence sharing most of its words", () => {
    expect(closestSegmentIndex(segments, "Revenue rose 12% on cloud demand")).toBe(1);
    expect(closestSegmentIndex(segments, "Management expects margin compression from freight")).toBe(2);
  });
  it("is -1 when no word is shared", () => {
    expect(closestSegmentIndex(segments, "zebra xylophone")).toBe(-1);
  });
});
