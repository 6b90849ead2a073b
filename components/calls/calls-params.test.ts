import { describe, expect, it } from "vitest";
import { followedSectionFilters, followedTickerChunks, mergeCallPages } from "./calls-params";

describe("followedTickerChunks", () => {
  it("covers every followed ticker, or those the ticker filter names too, in requests of 50", () => {
    const followed = new Set(["MSFT", "AAPL", "NWSC"]);
    expect(followedTickerChunks(followed)).toEqual({
      tickers: ["AAPL", "MSFT", "NWSC"],
      chunks: [["AAPL", "MSFT", "NWSC"]],
      omitted: 0,
    });
    expect(followedTickerChunks(followed, ["nwsc", "HLBR"]).chunks).toEqual([["NWSC"]]);
    expect(followedTickerChunks(followed, ["HLBR"])).toEqual({ tickers: [], chunks: [], omitted: 0 });
  });

  it("splits many tickers into requests of 50 and stops at four requests", () => {
    const many = new Set(Array.from({ length: 230 }, (_, i) => `T${String(i).padStart(3, "0")}`));
    const { chunks, omitted } = followedTickerChunks(many);
    expect(chunks.map((c) => c.length)).toEqual([50, 50, 50, 50]);
    expect(chunks[1]![0]).toBe("T050");
    expect(omitted).toBe(30);
  });
});

describe("mergeCallPages", () => {
  const call = (callId: string, status: string, startTime: string) => ({ callId, status, startTime });
  it("orders the union as the list does (live first, then newest) and keeps the first few", () => {
    const a = [call("a1", "live", "2026-11-24T10:00:00Z"), call("a2", "enriched", "2026-11-20T10:00:00Z")];
    const b = [
      call("b1", "live", "2026-11-24T12:00:00Z"),
      call("b2", "completed", "2026-11-23T10:00:00Z"),
      call("a2", "enriched", "2026-11-20T10:00:00Z"),
    ];
    expect(mergeCallPages([a, b], 3).map((c) => c.callId)).toEqual(["b1", "a1", "b2"]);
    expect(mergeCallPages([a, b], 10).map((c) => c.callId)).toEqual(["b1", "a1", "b2", "a2"]);
    expect(mergeCallPages([], 10)).toEqual([]);
  });
});

describe("followedSectionFilters", () => {
  it("keeps the list's status and dates, asks for these tickers' first calls", () => {
    expect(
      followedSectionFilters(
        {
          tickers: ["AAPL", "NWSC"],
          from: "2026-01-01T00:00:00.000Z",
          status: "completed",
          page: 3,
          pageSize: 20,
        },
        ["NWSC"],
      ),
    ).toEqual({
      tickers: ["NWSC"],
      from: "2026-01-01T00:00:00.000Z",
      status: "completed",
      page: 0,
      pageSize: 10,
    });
  });
});
