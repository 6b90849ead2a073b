import { describe, expect, it } from "vitest";
import type { Call } from "@/lib/schemas/calls";
import type { CallSnapshot } from "./bus";
import { confirmMp3, mergeCall } from "./live-call";

const ID = "a".repeat(24);

function restCall(status: Call["status"], count: number): Omit<Call, "streamCursor"> {
  return {
    callId: ID,
    title: "Q3 2026 Northwind Semiconductor (NWSC) Earnings Conference Call",
    symbol: "NWSC",
    name: "Northwind Semiconductor",
    exchange: "NASDAQ",
    period: "Q3",
    year: 2026,
    startTime: "2026-10-20T21:00:00.000Z",
    endTime: null,
    durationSeconds: 30,
    status,
    segments: Array.from({ length: count }, (_, i) => ({
      sequence: i,
      speaker: "SPEAKER_1",
      speakerName: status === "enriched" ? "Dana Whitfield" : null,
      startMs: i * 1000,
      endMs: i * 1000 + 900,
      text: `s${i}`,
      confidence: 0.9,
      sentiment: status === "enriched" ? 0.1 : null,
      sentimentSource: status === "enriched" ? ("enriched" as const) : null,
    })),
    summary: null,
    participants: [],
    hasAudio: true,
    hasMp3: false,
    hasPdf: false,
  };
}

function snapshot(status: CallSnapshot["status"], count: number): CallSnapshot {
  return {
    callId: ID,
    symbol: "NWSC",
    name: "Northwind Semiconductor",
    startTime: "2026-10-20T21:00:00.000Z",
    status,
    sentences: Array.from({ length: count }, (_, i) => ({
      callId: ID,
      sequence: i,
      text: `s${i}`,
      speaker: "SPEAKER_1",
      startMs: i * 1000,
      endMs: i * 1000 + 900,
      confidence: 0.9,
    })),
    cursor: "1-42",
  };
}

describe("mergeCall", () => {
  it("adds the sentences the live bus has and REST does not yet, once each, with the bus's cursor", () => {
    const merged = mergeCall(restCall("live", 3), snapshot("live", 6), "1-50")!;
    expect(merged.segments.map((s) => s.sequence)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(merged.segments[5]).toMatchObject({
      speakerName: null,
      sentiment: 0,
      sentimentSource: "live",
      text: "s5",
    });
    expect(merged.streamCursor).toBe("1-42");
  });

  it("keeps REST's enriched segments and takes the more advanced status", () => {
    const merged = mergeCall(restCall("enriched", 3), snapshot("completed", 3), "1-50")!;
    expect(merged.status).toBe("enriched");
    expect(merged.segments.every((s) => s.speakerName === "Dana Whitfield")).toBe(true);
    const ahead = mergeCall(restCall("live", 3), snapshot("completed", 3), "1-50")!;
    expect(ahead.status).toBe("completed");
  });

  it("serves from the bus alone when REST has nothing, and from REST alone when the bus does not carry the call", () => {
    const busOnly = mergeCall(null, snapshot("live", 2), "1-50")!;
    expect(busOnly).toMatchObject({ callId: ID, status: "live", symbol: "NWSC", streamCursor: "1-42" });
    expect(busOnly.segments).toHaveLength(2);
    const restOnlyLive = mergeCall(restCall("live", 2), null, "1-50")!;
    expect(restOnlyLive.streamCursor).toBe("1-50");
    const restOnlyDone = mergeCall(restCall("enriched", 2), null, "1-50")!;
    expect(restOnlyDone.streamCursor).toBeNull();
    expect(mergeCall(null, null, "1-50")).toBeNull();
  });
});

describe("confirmMp3", () => {
  const ended = () => ({ ...mergeCall(restCall("enriched", 1), null, "1-50")!, hasMp3: true });

  it("keeps hasMp3 only when the media proxy can serve the MP3", async () => {
    expect((await confirmMp3(ended(), async () => "ready")).hasMp3).toBe(true);
    expect((await confirmMp3(ended(), async () => "preparing")).hasMp3).toBe(false);
    expect((await confirmMp3(ended(), async () => "none")).hasMp3).toBe(false);
    const failing = await confirmMp3(ended(), async () => {
      throw new Error("upstream down");
    });
    expect(failing.hasMp3).toBe(false);
  });

  it("does not ask about live calls", async () => {
    let asked = 0;
    const live = mergeCall(restCall("live", 1), null, "1-50")!;
    await confirmMp3(live, async () => {
      asked += 1;
      return "ready";
    });
    expect(asked).toBe(0);
  });
});
