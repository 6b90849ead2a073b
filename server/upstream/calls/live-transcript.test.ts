import { beforeEach, describe, expect, it, vi } from "vitest";
import { callFromBody, liveTranscriptFromBody } from ".";

// Counts the live sentiment model's runs, to tell the gap fill's reader from the pages' (which scores every sentence).
const scored = vi.hoisted(() => ({ count: 0 }));
vi.mock("@/common/sentiment", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/common/sentiment")>();
  return {
    ...actual,
    liveSentiment: (text: string) => {
      scored.count += 1;
      return actual.liveSentiment(text);
    },
  };
});

function seg(i: number, extra: Record<string, unknown> = {}) {
  return {
    segment_id: i,
    speaker: i === 0 ? "OPERATOR" : "SPEAKER_1",
    start_ms: i * 2000,
    end_ms: i * 2000 + 1500,
    confidence: 0.9,
    text: `We raised guidance for the ${i}th time.`,
    sentiment: null,
    ...extra,
  };
}

const liveCall = {
  call_id: "65A1B2C3D4E5F60718293A4B",
  symbol: " nwsc ",
  name: "Northwind Semiconductor",
  start_time: "2026-10-20T21:00:00Z",
  status: "IN_PROGRESS",
  transcripts: [{ type: "LIVE", segments: [seg(2), seg(0), seg(1), seg(1)] }],
};

beforeEach(() => {
  scored.count = 0;
});

describe("liveTranscriptFromBody (the live bus's gap fill)", () => {
  it("reads who, when, the status and the transcript in sequence order, once per sequence", () => {
    const view = liveTranscriptFromBody(liveCall);
    expect(view).toMatchObject({
      callId: "65a1b2c3d4e5f60718293a4b",
      symbol: "NWSC",
      name: "Northwind Semiconductor",
      startTime: "2026-10-20T21:00:00.000Z",
      status: "live",
    });
    expect(view.segments.map((s) => s.sequence)).toEqual([0, 1, 2]);
    expect(view.segments[1]).toEqual({
      sequence: 1,
      speaker: "SPEAKER_1",
      startMs: 2000,
      endMs: 3500,
      text: "We raised guidance for the 1th time.",
      confidence: 0.9,
    });
  });

  it("scores nothing, where the pages' reader scores every sentence", () => {
    liveTranscriptFromBody(liveCall);
    expect(scored.count).toBe(0);
    callFromBody(liveCall);
    expect(scored.count).toBe(3);
  });

  it("agrees with the pages' reader on every sentence", () => {
    const view = liveTranscriptFromBody(liveCall);
    const call = callFromBody(liveCall);
    expect(view.segments).toEqual(
      call.segments.map(({ sequence, speaker, startMs, endMs, text, confidence }) => ({
        sequence,
        speaker,
        startMs,
        endMs,
        text,
        confidence,
      })),
    );
  });

  it("falls back to the final transcript when there is no live one", () => {
    const view = liveTranscriptFromBody({
      ...liveCall,
      status: "COMPLETED",
      end_time: "2026-10-20T21:10:00Z",
      transcripts: [{ type: "NON_LIVE", segments: [seg(0, { speaker: "Operator", sentiment: 0.2 })] }],
    });
    expect(view.status).toBe("completed");
    expect(view.segments).toEqual([expect.objectContaining({ sequence: 0, speaker: "Operator" })]);
    expect(view.segments[0]).not.toHaveProperty("sentiment");
  });
});
