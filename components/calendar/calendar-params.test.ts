import { createLoader } from "nuqs/server";
import { describe, expect, it } from "vitest";
import {
  cleanTickers,
  clampImportance,
  clampPageSize,
  earningsParams,
  filtersFromParams,
  resolveRange,
} from "./calendar-params";
import {
  chooseWatchlist,
  isWatchlistId,
  needsNotice,
  watchlistOptionLabel,
  watchlistSizeLabel,
} from "./watchlist-filter";

describe("calendar URL parameters", () => {
  const wednesday = new Date("2025-01-15T15:00:00Z");
  it("resolves presets against the exchange date", () => {
    expect(resolveRange({ range: "this-week", from: null, to: null }, wednesday)).toEqual({
      from: "2025-01-13",
      to: "2025-01-19",
    });
    expect(resolveRange({ range: "all", from: "2025-01-01", to: null }, wednesday)).toEqual({});
  });
  it("keeps custom dates and swaps a reversed range", () => {
    expect(resolveRange({ range: "custom", from: "2025-02-01", to: "2025-01-01" })).toEqual({
      from: "2025-01-01",
      to: "2025-02-01",
    });
    expect(resolveRange({ range: "custom", from: "2025-01-01", to: null })).toEqual({
      from: "2025-01-01",
      to: undefined,
    });
  });
  it("sanitises hand-edited values", () => {
    expect(cleanTickers(["nwsc", " acme ", "NWSC", "bad ticker!", ""])).toEqual(["NWSC", "ACME"]);
    expect(clampImportance(0)).toBeUndefined();
    expect(clampImportance(9)).toBe(5);
    expect(clampPageSize(7)).toBe(250);
    expect(clampPageSize(1000)).toBe(1000);
  });
});

describe("filtersFromParams", () => {
  it("turns the URL state into clamped API filters with the resolved range", () => {
    const { range, filters } = filtersFromParams({
      range: "custom",
      from: "2025-03-10",
      to: "2025-03-01",
      tickers: ["aapl", "bad ticker!", "AAPL"],
      importance: 9,
      sort: "date:desc",
      page: -2,
      pageSize: 77,
    });
    expect(range).toEqual({ from: "2025-03-01", to: "2025-03-10" });
    expect(filters).toEqual({
      from: "2025-03-01",
      to: "2025-03-10",
      tickers: ["AAPL"],
      importance: 5,
      sort: "date:desc",
      page: 0,
      pageSize: 250,
    });
  });
});

describe("the watchlist parameter", () => {
  const base = {
    range: "all" as const,
    from: null,
    to: null,
    tickers: ["AAPL"],
    importance: 0,
    sort: "date:asc",
    page: 0,
    pageSize: 250,
  };
  it("limits the rows to a watchlist and drops the ticker filter it replaces", () => {
    const { watchlist, filters } = filtersFromParams({ ...base, watchlist: " 12 " });
    expect(watchlist).toBe("12");
    expect(filters.tickers).toEqual([]);
  });
  it("means every company when absent or blank", () => {
    expect(filtersFromParams(base).watchlist).toBeNull();
    expect(filtersFromParams({ ...base, watchlist: "  " }).watchlist).toBeNull();
    expect(filtersFromParams({ ...base, watchlist: null }).filters.tickers).toEqual(["AAPL"]);
  });
  it("is read from the URL as typed, so a bad id can be reported", () => {
    const load = createLoader(earningsParams);
    expect(load("?watchlist=7&tickers=AAPL").watchlist).toBe("7");
    expect(load("?watchlist=abc").watchlist).toBe("abc");
    expect(load("").watchlist).toBeNull();
  });
});

describe("chooseWatchlist", () => {
  const semis = { id: "3", name: "Semis", position: 0, tickers: ["NWSC", "ACME"], createdAt: "" };
  const empty = { id: "4", name: "Later", position: 1, tickers: [], createdAt: "" };
  it("tells every case apart", () => {
    expect(chooseWatchlist(null, undefined)).toEqual({ kind: "all" });
    expect(chooseWatchlist("3", undefined)).toEqual({ kind: "loading", id: "3" });
    expect(chooseWatchlist("3", undefined, { isError: true })).toEqual({ kind: "error", id: "3" });
    expect(chooseWatchlist("3", [semis, empty])).toEqual({ kind: "ready", list: semis });
    expect(chooseWatchlist("4", [semis, empty])).toEqual({ kind: "empty", list: empty });
    expect(chooseWatchlist("99", [semis, empty])).toEqual({ kind: "unknown", id: "99" });
  });
  it("reports an id that cannot be one without waiting for the lists", () => {
    expect(chooseWatchlist("../1", undefined)).toEqual({ kind: "unknown", id: "../1" });
    expect(isWatchlistId("0012")).toBe(true);
    expect(isWatchlistId("1e3")).toBe(false);
  });
  it("labels a watchlist with its size", () => {
    expect(watchlistOptionLabel(semis)).toBe("Semis (2)");
    expect(watchlistSizeLabel(semis)).toBe("Semis (2 companies)");
    expect(watchlistSizeLabel({ name: "One", tickers: ["A"] })).toBe("One (1 company)");
  });
  it("explains instead of showing rows only when there are none to ask for", () => {
    expect(needsNotice({ kind: "unknown", id: "9" })).toBe(true);
    expect(needsNotice({ kind: "empty", list: empty })).toBe(true);
    expect(needsNotice({ kind: "error", id: "3" })).toBe(true);
    expect(needsNotice({ kind: "loading", id: "3" })).toBe(false);
    expect(needsNotice({ kind: "ready", list: semis })).toBe(false);
    expect(needsNotice({ kind: "all" })).toBe(false);
  });
});
