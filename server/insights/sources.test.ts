import { describe, expect, it, vi } from "vitest";
import type { Call, CallListItem } from "@/lib/schemas/calls";
import type { EarningsRow } from "@/lib/schemas/calendar";
import {
  createCalendarConsensusSource,
  createUpstreamPreviousCallSource,
  pickConsensus,
  type CallRef,
} from "./sources";

const call: CallRef = {
  callId: "c".repeat(24),
  symbol: "NWSC",
  startTime: "2026-10-20T20:30:00Z",
  period: "Q3",
  year: 2026,
};

function row(date: string, period: string, periodYear: number, epsEst: number): EarningsRow {
  return {
    id: date,
    date,
    time: "16:05:00",
    startsAt: null,
    isDateConfirmed: true,
    ticker: "NWSC",
    exchange: null,
    isin: null,
    cusip: null,
    name: "Northwind",
    currency: "USD",
    period,
    periodYear,
    epsType: "Adj",
    eps: null,
    epsEst,
    epsPrior: null,
    epsSurprise: null,
    epsSurprisePercent: null,
    revenueType: null,
    revenue: null,
    revenueEst: 4e9,
    revenuePrior: null,
    revenueSurprise: null,
    revenueSurprisePercent: null,
    importance: 3,
    notes: null,
    updatedAt: null,
  };
}

describe("pickConsensus", () => {
  const rows = [
    row("2027-01-21", "Q4", 2026, 2.1),
    row("2026-10-20", "Q3", 2026, 1.9),
    row("2026-07-21", "Q2", 2026, 1.7),
  ];

  it("takes the call's quarter by period and year, and the record after it as next", () => {
    const c = pickConsensus(call, rows);
    expect(c.current?.epsEst).toBe(1.9);
    expect(c.next?.epsEst).toBe(2.1);
  });

  it("falls back to the record reported within three days of the call", () => {
    const c = pickConsensus({ ...call, period: null, year: null }, rows);
    expect(c.current?.date).toBe("2026-10-20");
  });

  it("has nothing when no record is near", () => {
    expect(
      pickConsensus({ ...call, period: null, year: null, startTime: "2026-09-01T00:00:00Z" }, rows),
    ).toEqual({
      current: null,
      next: null,
    });
  });

  it("asks the calendar once per call", async () => {
    const listEarnings = vi.fn(async () => rows);
    const source = createCalendarConsensusSource({ listEarnings });
    await Promise.all([source.forCall(call), source.forCall(call)]);
    expect(listEarnings).toHaveBeenCalledTimes(1);
    expect(listEarnings).toHaveBeenCalledWith("NWSC", "2026-09-05", "2027-03-19", {});
  });
});

describe("createUpstreamPreviousCallSource", () => {
  const item = (callId: string, startTime: string): CallListItem => ({
    callId,
    title: `call ${callId}`,
    symbol: "NWSC",
    name: "Northwind",
    exchange: null,
    period: null,
    year: null,
    startTime,
    endTime: null,
    durationSeconds: null,
    status: "enriched",
  });
  const full = (callId: string): Call => ({
    ...item(callId, "2026-07-21T20:30:00Z"),
    segments: [
      {
        sequence: 0,
        speaker: "SPEAKER_1",
        speakerName: "Dana Whitfield",
        startMs: 0,
        endMs: 1000,
        text: "Revenue was $3.9 billion.",
        confidence: 1,
        sentiment: 0.1,
        sentimentSource: "enriched",
      },
    ],
    summary: null,
    participants: [],
    hasAudio: true,
    hasMp3: true,
    hasPdf: false,
    streamCursor: null,
  });

  it("takes the latest completed call before this one and keeps it per call", async () => {
    const listCompletedCalls = vi.fn(async () => [
      item(call.callId, call.startTime),
      item("b".repeat(24), "2026-04-21T20:30:00Z"),
      item("a".repeat(24), "2026-07-21T20:30:00Z"),
    ]);
    const getCall = vi.fn(async (id: string) => full(id));
    const source = createUpstreamPreviousCallSource({ listCompletedCalls, getCall });
    const previous = await source.findPrevious(call);
    expect(previous?.callId).toBe("a".repeat(24));
    expect(previous?.segments).toEqual([
      { sequence: 0, speaker: "Dana Whitfield", startMs: 0, text: "Revenue was $3.9 billion." },
    ]);
    await source.findPrevious(call);
    expect(getCall).toHaveBeenCalledTimes(1);
  });

  it("skips a call of the same fiscal quarter (a re-run is not last quarter)", async () => {
    const listCompletedCalls = vi.fn(async () => [
      { ...item("d".repeat(24), "2026-10-19T20:30:00Z"), period: "Q3", year: 2026 },
      { ...item("a".repeat(24), "2026-07-21T20:30:00Z"), period: "Q2", year: 2026 },
    ]);
    const source = createUpstreamPreviousCallSource({ listCompletedCalls, getCall: async (id) => full(id) });
    expect((await source.findPrevious(call))?.callId).toBe("a".repeat(24));
  });

  it("answers null for a company's first call, and retries after a failure", async () => {
    const listCompletedCalls = vi
      .fn<() => Promise<CallListItem[]>>()
      .mockRejectedValueOnce(new Error("upstream down"))
      .mockResolvedValue([]);
    const source = createUpstreamPreviousCallSource({ listCompletedCalls, getCall: vi.fn() });
    await expect(source.findPrevious(call)).rejects.toThrow("upstream down");
    await expect(source.findPrevious(call)).resolves.toBeNull();
  });
});
