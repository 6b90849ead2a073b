import { describe, expect, it } from "vitest";
import { ApiError } from "../core/api-error";
import type { WireEarningsRecord, WireMaRecord } from "../universe/wire";
import {
  EARNINGS_SORTS,
  expectedDateStart,
  isRealDate,
  MA_SORTS,
  parseCalendarQuery,
  selectEarnings,
  selectMa,
} from "./calendars";

const earning = (over: Partial<WireEarningsRecord>): WireEarningsRecord => ({
  id: "e",
  date: "2025-01-01",
  date_confirmed: 1,
  time: "08:00:00",
  ticker: "AAA",
  exchange: "NASDAQ",
  isin: "",
  cusip: "",
  name: "A",
  currency: "USD",
  period: "Q1",
  period_year: 2025,
  eps_type: "Adj",
  eps: "",
  eps_est: "",
  eps_prior: "",
  eps_surprise: "",
  eps_surprise_percent: "",
  revenue_type: "GAAP",
  revenue: "",
  revenue_est: "",
  revenue_prior: "",
  revenue_surprise: "",
  revenue_surprise_percent: "",
  importance: 3,
  notes: "",
  updated: 1000,
  ...over,
});

const deal = (over: Partial<WireMaRecord>): WireMaRecord => ({
  id: "m",
  date: "2025-01-01",
  date_expected: "",
  date_completed: "",
  acquirer_ticker: "AAA",
  acquirer_exchange: "NYSE",
  acquirer_name: "A",
  acquirer_cusip: "",
  acquirer_isin: "",
  target_ticker: "",
  target_exchange: "",
  target_name: "Private Co",
  target_cusip: "",
  target_isin: "",
  currency: "USD",
  deal_type: "Acquisition",
  deal_size: "",
  deal_payment_type: "Cash",
  deal_status: "Announced",
  deal_terms_extra: "",
  notes: "",
  importance: 3,
  updated: 1000,
  ...over,
});

const q = (query: string) => new URLSearchParams(query);
const earningsQuery = (query: string) => parseCalendarQuery(q(query), EARNINGS_SORTS, "date:desc");
const maQuery = (query: string) => parseCalendarQuery(q(query), MA_SORTS, "announced");

function badParameterMessage(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) return error.value;
    throw error;
  }
  throw new Error("expected a 400");
}

const ids = (rows: { id: string }[]) => rows.map((row) => row.id);

describe("parseCalendarQuery", () => {
  it("applies the defaults: page 0, pagesize 100, date:desc, no filters", () => {
    expect(earningsQuery("")).toEqual({
      page: 0,
      pageSize: 100,
      dateFrom: null,
      dateTo: null,
      tickers: null,
      importance: null,
      updated: null,
      dateSort: "date:desc",
    });
    expect(maQuery("").dateSort).toBe("announced");
  });

  it("accepts the edges of page and pagesize and refuses one past them", () => {
    expect(earningsQuery("page=0&pagesize=1")).toMatchObject({ page: 0, pageSize: 1 });
    expect(earningsQuery("page=100000&pagesize=1000")).toMatchObject({ page: 100000, pageSize: 1000 });
    expect(badParameterMessage(() => earningsQuery("page=-1"))).toBe("page must be between 0 and 100000");
    expect(badParameterMessage(() => earningsQuery("page=100001"))).toBe("page must be between 0 and 100000");
    expect(badParameterMessage(() => earningsQuery("pagesize=0"))).toBe(
      "pagesize must be between 1 and 1000",
    );
    expect(badParameterMessage(() => earningsQuery("pagesize=1001"))).toBe(
      "pagesize must be between 1 and 1000",
    );
    expect(badParameterMessage(() => earningsQuery("pagesize=1.5"))).toMatch(/^pagesize must be an integer/);
    expect(badParameterMessage(() => earningsQuery("page=abc"))).toMatch(/^page must be an integer/);
  });

  it("checks dates are real YYYY-MM-DD days and from <= to; date wins over from/to", () => {
    expect(badParameterMessage(() => earningsQuery("parameters[date]=2025-02-30"))).toMatch(
      /^parameters\[date\] must be a real calendar date/,
    );
    expect(badParameterMessage(() => earningsQuery("parameters[date_from]=2025/01/01"))).toBe(
      "parameters[date_from] must be a date in the form YYYY-MM-DD",
    );
    expect(badParameterMessage(() => earningsQuery("parameters[date_to]=2025-13-01"))).toMatch(
      /^parameters\[date_to\]/,
    );
    expect(
      badParameterMessage(() =>
        earningsQuery("parameters[date_from]=2025-01-02&parameters[date_to]=2025-01-01"),
      ),
    ).toBe("parameters[date_from] must be on or before parameters[date_to]");
    expect(earningsQuery("parameters[date_from]=2025-01-01&parameters[date_to]=2025-01-01")).toMatchObject({
      dateFrom: "2025-01-01",
      dateTo: "2025-01-01",
    });
    expect(earningsQuery("parameters[date]=2024-02-29&parameters[date_from]=2024-01-01")).toMatchObject({
      dateFrom: "2024-02-29",
      dateTo: "2024-02-29",
    });
  });

  it("allows 50 tickers and refuses 51", () => {
    const tickers = (n: number) => Array.from({ length: n }, (_, i) => `T${i}`).join(",");
    expect(earningsQuery(`parameters[tickers]=${tickers(50)}`).tickers?.size).toBe(50);
    expect(badParameterMessage(() => earningsQuery(`parameters[tickers]=${tickers(51)}`))).toBe(
      "parameters[tickers] accepts at most 50 tickers",
    );
    expect([...(earningsQuery("parameters[tickers]=aaa, Bbb,,").tickers ?? [])]).toEqual(["AAA", "BBB"]);
    expect(badParameterMessage(() => earningsQuery("parameters[tickers]=A B"))).toMatch(
      /^parameters\[tickers\]/,
    );
  });

  it("limits importance to 0..5, updated to Unix seconds, date_sort to its enum", () => {
    expect(earningsQuery("parameters[importance]=0").importance).toBe(0);
    expect(earningsQuery("parameters[importance]=5").importance).toBe(5);
    expect(badParameterMessage(() => earningsQuery("parameters[importance]=6"))).toBe(
      "parameters[importance] must be between 0 and 5",
    );
    expect(badParameterMessage(() => earningsQuery("parameters[importance]=-1"))).toBe(
      "parameters[importance] must be between 0 and 5",
    );
    expect(earningsQuery("parameters[updated]=1700000000").updated).toBe(1700000000);
    expect(badParameterMessage(() => earningsQuery("parameters[updated]=2025-01-01"))).toMatch(
      /^parameters\[updated\] must be a Unix time/,
    );
    expect(earningsQuery("parameters[date_sort]=date:asc").dateSort).toBe("date:asc");
    expect(badParameterMessage(() => earningsQuery("parameters[date_sort]=announced"))).toBe(
      "parameters[date_sort] must be one of date, date:asc, date:desc",
    );
    expect(badParameterMessage(() => maQuery("parameters[date_sort]=date"))).toBe(
      "parameters[date_sort] must be one of announced, expected, completed",
    );
  });

  it("treats empty values as absent and ignores unknown parameters", () => {
    expect(earningsQuery("pagesize=&parameters[tickers]=&foo=bar")).toMatchObject({
      pageSize: 100,
      tickers: null,
    });
  });
});

describe("isRealDate / expectedDateStart", () => {
  it("knows leap years and month lengths", () => {
    expect(isRealDate("2024-02-29")).toBe(true);
    expect(isRealDate("2025-02-29")).toBe(false);
    expect(isRealDate("2025-04-31")).toBe(false);
  });

  it("maps quarters and months to their first day", () => {
    expect(expectedDateStart("2026-03-15")).toBe("2026-03-15");
    expect(expectedDateStart("2026-Q3")).toBe("2026-07-01");
    expect(expectedDateStart("2026-Q1")).toBe("2026-01-01");
    expect(expectedDateStart("2026-11")).toBe("2026-11-01");
    expect(expectedDateStart("")).toBeNull();
    expect(expectedDateStart("2026-Q5")).toBeNull();
  });
});

describe("selectEarnings", () => {
  const records = [
    earning({ id: "1", date: "2025-01-01", time: "16:05:00", ticker: "BBB", importance: 1, updated: 50 }),
    earning({ id: "2", date: "2025-01-01", time: "08:00:00", ticker: "CCC", importance: 4, updated: 40 }),
    earning({ id: "3", date: "2025-01-02", time: "08:00:00", ticker: "AAA", importance: 5, updated: 30 }),
    earning({ id: "4", date: "2025-01-01", time: "08:00:00", ticker: "AAA", importance: 2, updated: 20 }),
    earning({ id: "5", date: "2025-01-03", time: "07:00:00", ticker: "ddd", importance: 0, updated: 10 }),
  ];

  it("sorts date:desc by default with time in the same direction, then ticker", () => {
    expect(ids(selectEarnings(records, earningsQuery("")))).toEqual(["5", "3", "1", "4", "2"]);
  });

  it("sorts date and date:asc oldest first", () => {
    expect(ids(selectEarnings(records, earningsQuery("parameters[date_sort]=date:asc")))).toEqual([
      "4",
      "2",
      "1",
      "3",
      "5",
    ]);
    expect(ids(selectEarnings(records, earningsQuery("parameters[date_sort]=date")))).toEqual([
      "4",
      "2",
      "1",
      "3",
      "5",
    ]);
  });

  it("filters by inclusive date range and by a single date", () => {
    expect(ids(selectEarnings(records, earningsQuery("parameters[date]=2025-01-01")))).toEqual([
      "1",
      "4",
      "2",
    ]);
    expect(
      ids(
        selectEarnings(
          records,
          earningsQuery("parameters[date_from]=2025-01-02&parameters[date_to]=2025-01-03"),
        ),
      ),
    ).toEqual(["5", "3"]);
    expect(ids(selectEarnings(records, earningsQuery("parameters[date_to]=2025-01-01")))).toEqual([
      "1",
      "4",
      "2",
    ]);
  });

  it("filters by tickers case-insensitively", () => {
    expect(ids(selectEarnings(records, earningsQuery("parameters[tickers]=aaa,DDD")))).toEqual([
      "5",
      "3",
      "4",
    ]);
  });

  it("keeps importance >= value", () => {
    expect(ids(selectEarnings(records, earningsQuery("parameters[importance]=4")))).toEqual(["3", "2"]);
  });

  it("keeps updated >= value and sorts by updated ascending, overriding date_sort", () => {
    expect(
      ids(selectEarnings(records, earningsQuery("parameters[updated]=20&parameters[date_sort]=date:desc"))),
    ).toEqual(["4", "3", "2", "1"]);
  });

  it("pages 0-based and answers 404 past the end or on an empty selection", () => {
    expect(ids(selectEarnings(records, earningsQuery("pagesize=2&page=0")))).toEqual(["5", "3"]);
    expect(ids(selectEarnings(records, earningsQuery("pagesize=2&page=2")))).toEqual(["2"]);
    expect(() => selectEarnings(records, earningsQuery("pagesize=2&page=3"))).toThrow(
      expect.objectContaining({ status: 404, code: "no_data_found" }),
    );
    expect(() => selectEarnings(records, earningsQuery("parameters[tickers]=ZZZ"))).toThrow(
      expect.objectContaining({ status: 404 }),
    );
  });
});

describe("selectMa", () => {
  const deals = [
    deal({
      id: "a",
      date: "2024-05-01",
      date_expected: "2026-Q3",
      date_completed: "",
      importance: 2,
      updated: 9,
    }),
    deal({
      id: "b",
      date: "2024-03-01",
      date_expected: "2026-07-02",
      date_completed: "2025-01-10",
      updated: 8,
    }),
    deal({
      id: "c",
      date: "2024-04-01",
      date_expected: "2026-06-30",
      date_completed: "2025-03-01",
      updated: 7,
    }),
    deal({
      id: "d",
      date: "2024-06-01",
      date_expected: "",
      date_completed: "",
      target_ticker: "TGT",
      updated: 6,
    }),
    deal({ id: "e", date: "2024-02-01", date_expected: "2026-08", acquirer_ticker: "XYZ", importance: 5 }),
  ];

  it("sorts announced oldest first by default", () => {
    expect(ids(selectMa(deals, maQuery("")))).toEqual(["e", "b", "c", "a", "d"]);
  });

  it("sorts expected newest first by the earliest day denoted, leaving out deals without one", () => {
    // 2026-08 → 08-01; 2026-07-02; 2026-Q3 → 07-01; 2026-06-30
    expect(ids(selectMa(deals, maQuery("parameters[date_sort]=expected")))).toEqual(["e", "b", "a", "c"]);
  });

  it("sorts completed newest first, leaving out deals not completed", () => {
    expect(ids(selectMa(deals, maQuery("parameters[date_sort]=completed")))).toEqual(["c", "b"]);
  });

  it("matches tickers on acquirer or target", () => {
    expect(ids(selectMa(deals, maQuery("parameters[tickers]=tgt,xyz")))).toEqual(["e", "d"]);
  });

  it("filters announcement dates, importance and updated", () => {
    expect(
      ids(selectMa(deals, maQuery("parameters[date_from]=2024-03-01&parameters[date_to]=2024-04-30"))),
    ).toEqual(["b", "c"]);
    expect(ids(selectMa(deals, maQuery("parameters[importance]=4")))).toEqual(["e"]);
    expect(ids(selectMa(deals, maQuery("parameters[updated]=7")))).toEqual(["c", "b", "a", "e"]);
  });
});
