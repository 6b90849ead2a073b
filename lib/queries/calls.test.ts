import { describe, expect, it } from "vitest";
import type { Call, Segment } from "@/lib/schemas/calls";
import { callRefetchInterval, mergeSegments } from "./calls";

const seg = (sequence: number, speakerName: string | null = null): Segment => ({
  sequence,
  speaker: "SPEAKER_1",
  speakerName,
  startMs: sequence * 1000,
  endMs: sequence * 1000 + 900,
  text: `s${sequence}`,
  confidence: null,
  sentiment: null,
  sentimentSource: null,
});

describe("mergeSegments", () => {
  it("appends new sentences in sequence order and drops ones already held", () => {
    const merged = mergeSegments([seg(0, "Dana"), seg(1)], [seg(3), seg(1), seg(2)]);
    expect(merged.map((s) => s.sequence)).toEqual([0, 1, 2, 3]);
    expect(merged[0]!.speakerName).toBe("Dana");
  });

  it("returns the same array when nothing is new", () => {
    const segments = [seg(0), seg(1)];
    expect(mergeSegments(segments, [seg(1)])).toBe(segments);
    expect(mergeSegments(segments, [])).toBe(segments);
  });

  it("sorts an out-of-order late sentence into place", () => {
    expect(mergeSegments([seg(0), seg(2)], [seg(1)]).map((s) => s.sequence)).toEqual([0, 1, 2]);
  });
});

describe("callRefetchInterval", () => {
  const base = { status: "live", hasAudio: true, hasMp3: false, summary: null } as unknown as Call;
  it("does not poll a live call whose audio exists: the stream carries it", () => {
    expect(callRefetchInterval(base)).toBe(false);
  });
  it("polls a live call until its playlist is published", () => {
    expect(callRefetchInterval({ ...base, hasAudio: false })).toBeGreaterThan(0);
  });
  it("polls an ended call until its MP3 and summary exist, then stops", () => {
    expect(callRefetchInterval({ ...base, status: "completed" })).toBeGreaterThan(0);
    expect(callRefetchInterval({ ...base, status: "enriched", hasMp3: true })).toBeGreaterThan(0);
    const done = { ...base, status: "enriched", hasMp3: true, summary: { points: ["x"] } } as unknown as Call;
    expect(callRefetchInterval(done)).toBe(false);
  });
});
