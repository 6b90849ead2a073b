import { describe, expect, it } from "vitest";
import {
  cleanTickers,
  clampImportance,
  clampPageSize,
  filtersFromParams,
  resolveRange,
} from "./calendar-params";

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
