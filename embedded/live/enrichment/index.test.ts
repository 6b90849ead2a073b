import { describe, expect, it } from "vitest";
import { createEnricher } from "./index";
import { BEAT_CALL } from "../../test/fixtures/calls";
import type { EnrichmentInput } from "./types";

describe("createEnricher", () => {
  const enricher = createEnricher();

  it("enriches a call end to end", () => {
    const result = enricher.enrich(BEAT_CALL);
    expect(result.segmentSentiments).toHaveLength(BEAT_CALL.segments.length);
    expect(result.summaryLines.length).toBe(result.summarySequences.length);
    expect(result.summaryLines.length).toBeGreaterThanOrEqual(5);
    expect(result.participants).toHaveLength(BEAT_CALL.speakers.length);
    expect(result.overallSentiment).toBeGreaterThan(0);
  });

  it("handles an empty call and unknown speaker labels", async () => {
    const empty: EnrichmentInput = { ...BEAT_CALL, speakers: [], segments: [] };
    expect(enricher.enrich(empty)).toEqual({
      segmentSentiments: [],
      overallSentiment: 0,
      summaryLines: [],
      summarySequences: [],
      participants: [],
    });
    const unknown: EnrichmentInput = {
      ...BEAT_CALL,
      speakers: [],
      segments: [
        {
          sequence: 0,
          speakerLabel: "SPEAKER_9",
          text: "Revenue grew 20% to a record.",
          startMs: 0,
          endMs: 900,
        },
      ],
    };
    const result = enricher.enrich(unknown);
    expect(result.segmentSentiments[0]).toBeGreaterThan(0);
    expect(result.overallSentiment).toBeGreaterThan(0);
    const pdf = await enricher.renderPdf(unknown, result);
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  });

  it("rounds scores to four decimals without negative zero", () => {
    const result = enricher.enrich(BEAT_CALL);
    for (const value of [...result.segmentSentiments, result.overallSentiment]) {
      expect(Math.round(value * 10_000) / 10_000).toBe(value);
      expect(Object.is(value, -0)).toBe(false);
    }
  });
});
