import { describe, expect, it, vi } from "vitest";
import type { Call } from "@/lib/schemas/calls";
import { createInsightsService } from "./service";

const call: Call = {
  callId: "c".repeat(24),
  title: "Q3 2026 Northwind",
  symbol: "NWSC",
  name: "Northwind",
  exchange: null,
  period: "Q3",
  year: 2026,
  startTime: "2026-10-20T20:30:00Z",
  endTime: null,
  durationSeconds: 60,
  status: "live",
  segments: ["Revenue for the quarter was $4.2 billion.", "Adjusted EPS for the quarter was $1.99."].map(
    (text, sequence) => ({
      sequence,
      speaker: "SPEAKER_2",
      speakerName: null,
      startMs: sequence * 4000,
      endMs: sequence * 4000 + 3000,
      text,
      confidence: 1,
      sentiment: 0,
      sentimentSource: "live" as const,
    }),
  ),
  summary: null,
  participants: [],
  hasAudio: true,
  hasMp3: false,
  hasPdf: false,
  streamCursor: null,
};

const consensus = {
  current: {
    period: "Q3",
    periodYear: 2026,
    date: "2026-10-20",
    epsType: "Adj",
    epsEst: 2,
    eps: null,
    epsSurprisePercent: null,
    revenueEst: 4e9,
    revenue: null,
    revenueSurprisePercent: null,
  },
  next: null,
};

describe("createInsightsService", () => {
  const getCall = async () => ({ call, fetchedAt: "2026-10-20T20:31:00.000Z", stale: false });

  it("computes the call's insights with consensus and says through which sentence", async () => {
    const service = createInsightsService({
      getCall,
      consensus: { forCall: async () => consensus },
      previousCalls: { findPrevious: async () => null },
      log: { warn: vi.fn() },
    });
    const { insights, stale } = await service.getInsights(call.callId);
    expect(stale).toBe(false);
    expect(insights.throughSequence).toBe(1);
    expect(insights.figures.map((f) => [f.metric, f.surprisePercent])).toEqual([
      ["revenue", 5],
      ["eps", -0.5],
    ]);
  });

  it("serves the figures without consensus when the calendar fails, marked stale", async () => {
    const warn = vi.fn();
    const service = createInsightsService({
      getCall,
      consensus: { forCall: async () => Promise.reject(new Error("503")) },
      previousCalls: { findPrevious: async () => null },
      log: { warn },
    });
    const { insights, stale } = await service.getInsights(call.callId);
    expect(stale).toBe(true);
    expect(insights.figures).toHaveLength(2);
    expect(insights.figures[0]?.consensus).toBeUndefined();
    expect(warn).toHaveBeenCalledOnce();
  });
});
