import { describe, expect, it } from "vitest";
import { enrich } from "./index";
import { scoreText } from "./sentiment";
import { BEAT_CALL, MISS_CALL } from "../../test/fixtures/calls";

// The scorer's own tests live with it in common/sentiment; these check the enrichment's use of it.
describe("overall call sentiment", () => {
  it("scores a beat call higher than a miss call, with the right signs", () => {
    const beat = enrich(BEAT_CALL).overallSentiment;
    const miss = enrich(MISS_CALL).overallSentiment;
    expect(beat).toBeGreaterThan(0.3);
    expect(miss).toBeLessThan(-0.3);
    expect(beat).toBeGreaterThan(miss);
  });

  it("returns one score per segment, neutral for operator lines", () => {
    const result = enrich(BEAT_CALL);
    expect(result.segmentSentiments).toHaveLength(BEAT_CALL.segments.length);
    BEAT_CALL.segments.forEach((segment, index) => {
      const value = result.segmentSentiments[index] ?? Number.NaN;
      expect(value).toBeGreaterThanOrEqual(-1);
      expect(value).toBeLessThanOrEqual(1);
      if (segment.speakerLabel === "OPERATOR") expect(value).toBe(0);
    });
  });

  it("is deterministic and scores segments with the shared scorer", () => {
    const result = enrich(BEAT_CALL);
    expect(enrich(BEAT_CALL)).toEqual(result);
    const executive = BEAT_CALL.segments.findIndex((s) => s.speakerLabel !== "OPERATOR");
    expect(result.segmentSentiments[executive]).toBeCloseTo(
      scoreText(BEAT_CALL.segments[executive]!.text).score,
      2,
    );
  });
});
