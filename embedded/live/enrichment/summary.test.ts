import { describe, expect, it } from "vitest";
import { enrich } from "./index";
import { cosine, figureBoost, pageRank, summarize, textRank, type SummarySegment } from "./summary";
import { BEAT_CALL, MISS_CALL } from "../../test/fixtures/calls";

const argmax = (values: number[]): number =>
  values.reduce((best, value, i) => (value > (values[best] ?? -Infinity) ? i : best), 0);

describe("pageRank", () => {
  it("converges to a distribution that sums to 1 and favours the hub of a star graph", () => {
    const star = [
      [0, 1, 1, 1],
      [1, 0, 0, 0],
      [1, 0, 0, 0],
      [1, 0, 0, 0],
    ];
    const ranks = pageRank(star);
    expect(ranks.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    expect(argmax(ranks)).toBe(0);
    // Closed form for a 4-node star with d = 0.85: hub = (0.0375 + 0.85·3·leaf), leaf = 0.0375 + 0.85·hub/3.
    const hub = ranks[0] ?? 0;
    expect(ranks[1]).toBeCloseTo(0.0375 + (0.85 * hub) / 3, 9);
  });

  it("spreads rank evenly over a graph without edges", () => {
    expect(
      pageRank([
        [0, 0],
        [0, 0],
      ]),
    ).toEqual([0.5, 0.5]);
  });
});

describe("textRank", () => {
  it("ranks the sentence that shares the most with the others first", () => {
    const sentences = [
      "Cloud customers drove revenue growth in the data center business.",
      "Enterprise customers expanded orders for networking products.",
      "The data center business grew revenue with cloud customers, enterprise customers and networking orders.",
      "Networking products shipped to cloud customers in volume.",
      "The cafeteria menu changed in March.",
    ];
    const ranks = textRank(sentences);
    expect(argmax(ranks)).toBe(2);
    expect(ranks[4]).toBe(Math.min(...ranks));
  });
});

describe("summarize", () => {
  const segments = (input: typeof BEAT_CALL): SummarySegment[] => {
    const roles = new Map(input.speakers.map((s) => [s.label, s.role]));
    return input.segments.map((s) => ({
      sequence: s.sequence,
      text: s.text,
      role: roles.get(s.speakerLabel) ?? null,
    }));
  };

  it("returns 5 points for a short call, in transcript order, with matching sequences", () => {
    for (const call of [BEAT_CALL, MISS_CALL]) {
      const { lines, sequences } = summarize(segments(call));
      expect(lines).toHaveLength(5);
      expect(sequences).toHaveLength(lines.length);
      expect([...sequences].sort((a, b) => a - b)).toEqual(sequences);
      lines.forEach((line, i) => {
        const segment = call.segments.find((s) => s.sequence === sequences[i]);
        expect(segment?.text).toContain(line);
      });
    }
  });

  it("never includes operator, procedural or question sentences", () => {
    const operatorSequences = new Set(
      BEAT_CALL.segments.filter((s) => s.speakerLabel === "OPERATOR").map((s) => s.sequence),
    );
    const { lines, sequences } = summarize(segments(BEAT_CALL));
    for (const sequence of sequences) expect(operatorSequences.has(sequence)).toBe(false);
    for (const line of lines) {
      expect(line).not.toMatch(/thank|welcome|question-and-answer|\?$/i);
    }
  });

  it("keeps the headline results of a call", () => {
    const { lines } = summarize(segments(BEAT_CALL));
    expect(lines.some((line) => line.includes("record revenue of $4.2 billion"))).toBe(true);
    expect(lines.some((line) => line.includes("raising our full-year revenue guidance"))).toBe(true);
  });

  it("caps a long call at 8 points and skips near-duplicates", () => {
    const base = segments(BEAT_CALL);
    const long: SummarySegment[] = [];
    for (let round = 0; round < 8; round += 1) {
      for (const segment of base) long.push({ ...segment, sequence: long.length });
    }
    const { lines } = summarize(long);
    expect(lines.length).toBeGreaterThanOrEqual(5);
    expect(lines.length).toBeLessThanOrEqual(8);
    expect(new Set(lines).size).toBe(lines.length);
  });

  it("favours sentences with figures and headline metrics, by at most 20%", () => {
    expect(figureBoost("Diluted EPS was $1.99.")).toBeCloseTo(1.2);
    expect(figureBoost("Revenue was strong.")).toBeCloseTo(1.1);
    expect(figureBoost("We shipped 40 new designs.")).toBeCloseTo(1.1);
    expect(figureBoost("Customers like the product.")).toBe(1);
  });

  it("returns nothing for a call with only operator lines", () => {
    expect(
      summarize([{ sequence: 0, text: "Welcome to the call. Please stand by.", role: "Operator" }]),
    ).toEqual({
      lines: [],
      sequences: [],
    });
  });

  it("is what enrich() returns", () => {
    const result = enrich(BEAT_CALL);
    const direct = summarize(segments(BEAT_CALL));
    expect(result.summaryLines).toEqual(direct.lines);
    expect(result.summarySequences).toEqual(direct.sequences);
  });
});

describe("cosine", () => {
  it("is 1 for identical vectors and 0 for disjoint ones", () => {
    const a = new Map([
      ["revenu", 1],
      ["grow", 2],
    ]);
    expect(cosine(a, a)).toBeCloseTo(1);
    expect(cosine(a, new Map([["cafeteria", 1]]))).toBe(0);
  });
});
