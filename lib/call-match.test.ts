import { describe, expect, it } from "vitest";
import { callWindow, matchCallsToRows, type CallRef } from "./call-match";

const row = (
  id: string,
  ticker: string,
  date: string,
  period: string | null = "Q3",
  periodYear: number | null = 2026,
) => ({
  id,
  ticker,
  date,
  period,
  periodYear,
});
const call = (callId: string, symbol: string, startTime: string, over: Partial<CallRef> = {}): CallRef => ({
  callId,
  symbol,
  status: "completed",
  startTime,
  period: null,
  year: null,
  ...over,
});

describe("callWindow", () => {
  it("spans the reports due so far, a day before the first to a few days after the last, never past tomorrow", () => {
    expect(
      callWindow([{ date: "2026-11-20" }, { date: "2026-11-24" }, { date: "2026-12-10" }], "2026-11-27"),
    ).toEqual({
      from: "2026-11-19",
      to: "2026-11-28",
    });
    expect(callWindow([{ date: "2026-11-02" }, { date: "2026-11-05" }], "2026-11-27")).toEqual({
      from: "2026-11-01",
      to: "2026-11-09",
    });
  });

  it("asks nothing when every report is still to come, and at most 60 days back", () => {
    expect(callWindow([{ date: "2026-12-01" }], "2026-11-27")).toBeNull();
    expect(callWindow([{ date: "2025-01-01" }, { date: "2026-11-20" }], "2026-11-27")).toEqual({
      from: "2026-09-25",
      to: "2026-11-24",
    });
  });
});

describe("matchCallsToRows", () => {
  it("takes the call of the same fiscal quarter first, else the first call in the days after the report", () => {
    const rows = [
      row("a", "NWSC", "2026-11-20"),
      row("b", "ACME", "2026-11-24", null, null),
      row("c", "ZZZ", "2026-11-24"),
      row("d", "LATE", "2026-11-10", null, null),
    ];
    const calls = [
      call("n-other", "NWSC", "2026-11-20T21:00:00Z", { period: "Q2", year: 2026 }),
      call("n-q3", "nwsc", "2026-11-21T13:00:00Z", { period: "Q3", year: 2026 }),
      call("a-2", "ACME", "2026-11-26T21:00:00Z"),
      call("a-1", "ACME", "2026-11-24T21:00:00Z", { status: "live" }),
      call("l-1", "LATE", "2026-11-20T21:00:00Z"),
    ];
    const matched = matchCallsToRows(rows, calls);
    expect(Object.fromEntries([...matched].map(([id, c]) => [id, c.callId]))).toEqual({
      a: "n-q3",
      b: "a-1",
    });
  });
});
