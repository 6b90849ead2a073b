import { describe, expect, it } from "vitest";
import type { Upstream } from "../upstream/client";
import type { UpstreamQuery } from "../upstream/client";
import { pageOfRows } from "./watchlist-calendar";
import { watchlistEarnings, watchlistMa } from "./watchlist-calendars";

/**
 * The watchlist calendars through the real upstream calendar module (query translation, wire schemas, mappers) over
 * a fake upstream that, like the real one, refuses more than 50 tickers and matches an M&A ticker as acquirer or
 * target.
 */

const TICKERS = Array.from({ length: 120 }, (_, i) => `W${String(i).padStart(3, "0")}`);
const FETCHED = ["2026-11-24T10:00:05.000Z", "2026-11-24T10:00:01.000Z", "2026-11-24T10:00:03.000Z"];

function earningsRecord(ticker: string, i: number) {
  const day = String((i % 5) + 2).padStart(2, "0");
  return {
    id: `e-${ticker}`,
    date: `2026-11-${day}`,
    date_confirmed: 1,
    time: "16:05:00",
    ticker,
    name: ticker,
    importance: 2,
    updated: 0,
  };
}

function maRecord(id: string, acquirer: string, target: string) {
  return {
    id,
    date: `2026-10-${id.slice(-2)}`,
    acquirer_ticker: acquirer,
    target_ticker: target,
    acquirer_name: acquirer,
    target_name: target,
    importance: 1,
    updated: 0,
  };
}

/** Every ticker outside the list too, so a filter that leaked would show. */
const DEALS = [
  maRecord("m-01", TICKERS[0]!, TICKERS[70]!), // both parties in the list, in different chunks
  maRecord("m-02", "OUTSIDE", TICKERS[119]!), // matched as target only
  maRecord("m-03", TICKERS[55]!, "ELSEWHERE"), // matched as acquirer only
  maRecord("m-04", "OUTSIDE", "ELSEWHERE"),
];

function fakeUpstream() {
  const asked: UpstreamQuery[] = [];
  let call = 0;
  const upstream = {
    log: {},
    cache: {
      get: async (_key: string, _policy: unknown, load: () => Promise<unknown>) => ({
        value: await load(),
        fetchedAt: FETCHED[call++ % FETCHED.length],
        stale: false,
      }),
    },
    http: {
      get: async (path: string, query: UpstreamQuery, schema: { parse: (body: unknown) => unknown }) => {
        asked.push(query);
        const tickers = String(query["parameters[tickers]"] ?? "").split(",");
        if (tickers.length > 50) throw new Error("the upstream takes at most 50 tickers");
        const wanted = new Set(tickers);
        const body = path.endsWith("/earnings")
          ? { earnings: TICKERS.filter((t) => wanted.has(t)).map(earningsRecord) }
          : { ma: DEALS.filter((d) => wanted.has(d.acquirer_ticker) || wanted.has(d.target_ticker)) };
        return { status: "ok", data: schema.parse(body) };
      },
    },
  } as unknown as Upstream;
  return { upstream, asked };
}

describe("watchlist calendars over 50 tickers", () => {
  it("asks in chunks of 50 and returns exactly the list's reports, in the main calendar's order", async () => {
    const { upstream, asked } = fakeUpstream();
    const merged = await watchlistEarnings(upstream, TICKERS, { from: "2026-11-01", sort: "date:asc" });
    expect(asked.map((q) => String(q["parameters[tickers]"]).split(",").length)).toEqual([50, 50, 20]);
    expect(asked.every((q) => q["parameters[date_sort]"] === "date:asc")).toBe(true);
    expect(merged.requests).toBe(3);
    expect(merged.rows.map((r) => r.ticker).sort()).toEqual(TICKERS);
    const dates = merged.rows.map((r) => r.date);
    expect(dates).toEqual([...dates].sort());
    // The merged answer is as old as its oldest part.
    expect(merged.fetchedAt).toBe("2026-11-24T10:00:01.000Z");
    expect(merged.stale).toBe(false);
  });

  it("finds a deal by acquirer or target, once, even when both parties are in the list", async () => {
    const { upstream } = fakeUpstream();
    const merged = await watchlistMa(upstream, TICKERS, { sort: "announced" });
    // Newest announcement first, as the M&A calendar reads (lib/queries/calendar.ts, compareMa).
    expect(merged.rows.map((r) => r.id)).toEqual(["m-03", "m-02", "m-01"]);
  });

  it("pages the merged rows with an exact hasMore", () => {
    const rows = Array.from({ length: 7 }, (_, i) => i);
    expect(pageOfRows(rows, 0, 3)).toEqual({ rows: [0, 1, 2], hasMore: true });
    expect(pageOfRows(rows, 2, 3)).toEqual({ rows: [6], hasMore: false });
    expect(pageOfRows(rows, 1, 4)).toEqual({ rows: [4, 5, 6], hasMore: false });
    expect(pageOfRows(rows, 5, 3)).toEqual({ rows: [], hasMore: false });
  });
});
