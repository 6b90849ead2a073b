import { describe, expect, it } from "vitest";
import { earningsRowSchema, maRowSchema, earningsQuerySchema, maQuerySchema } from "@/lib/schemas/calendar";
import { earningsRowsFromBody, maRowsFromBody, toUpstreamCalendarQuery } from ".";
import earnings from "@/test/fixtures/upstream/earnings.json";
import ma from "@/test/fixtures/upstream/ma.json";

describe("earnings mapper", () => {
  it("maps a reported record to camelCase numbers with the report time in UTC", () => {
    const [row] = earningsRowsFromBody(earnings);
    expect(earningsRowSchema.parse(row)).toEqual(row);
    expect(row).toMatchObject({
      ticker: "NWSC",
      date: "2026-01-28",
      time: "16:05:00",
      startsAt: "2026-01-28T21:05:00.000Z",
      isDateConfirmed: true,
      eps: 1.99,
      epsEst: 1.87,
      epsSurprisePercent: 6.417,
      revenue: 102466000000,
      importance: 5,
      notes: null,
      updatedAt: new Date(1769634300 * 1000).toISOString(),
    });
  });

  it("turns empty strings into null and tolerates string integers, number amounts and lower-case tickers", () => {
    const [, row] = earningsRowsFromBody(earnings);
    expect(earningsRowSchema.parse(row)).toEqual(row);
    expect(row).toMatchObject({
      ticker: "BRKX",
      time: null,
      startsAt: null,
      isDateConfirmed: false,
      eps: null,
      epsEst: 0.45,
      epsPrior: -0.12,
      epsSurprise: null,
      revenueType: null,
      revenueEst: 2500000,
      isin: null,
      periodYear: 2026,
      importance: 2,
      notes: "Date estimated",
    });
  });

  it("uses the summer (EDT) offset for dates in daylight-saving time", () => {
    const body = { earnings: [{ ...earnings.earnings[0], date: "2026-07-15", time: "08:30:00" }] };
    expect(earningsRowsFromBody(body)[0]?.startsAt).toBe("2026-07-15T12:30:00.000Z");
  });

  it.each([
    ["an empty earnings list", { earnings: [] }],
    ["a bare empty array", []],
    ["a null earnings member", { earnings: null }],
  ])("reads %s as no rows", (_label, body) => {
    expect(earningsRowsFromBody(body)).toEqual([]);
  });

  it("rejects a body that is not a calendar", () => {
    expect(() => earningsRowsFromBody({ earnings: [{ id: "1" }] })).toThrow();
    expect(() => earningsRowsFromBody("nope")).toThrow();
  });
});

describe("M&A mapper", () => {
  it("maps a deal with a private target: no ticker, no size, quarter-style expected date", () => {
    const [row] = maRowsFromBody(ma);
    expect(maRowSchema.parse(row)).toEqual(row);
    expect(row).toMatchObject({
      id: "a1",
      announcedDate: "2025-11-03",
      expectedDate: "2026-Q2",
      completedDate: null,
      target: { ticker: null, exchange: null, name: "Quiet Fab GmbH", cusip: null, isin: null },
      acquirer: { ticker: "NWSC", exchange: "NASDAQ" },
      dealSize: null,
      dealPaymentType: null,
      dealStatus: "Announced",
    });
  });

  it("maps a completed deal with decimal-string size and string integers", () => {
    const [, row] = maRowsFromBody(ma);
    expect(row).toMatchObject({
      dealSize: 1250000000,
      dealPaymentType: "Cash & Stock",
      completedDate: "2024-10-02",
      importance: 4,
      updatedAt: new Date(1727900000 * 1000).toISOString(),
      dealTermsExtra: "$12.50 per share",
    });
  });

  it("reads an empty list and a bare array as no rows", () => {
    expect(maRowsFromBody({ ma: [] })).toEqual([]);
    expect(maRowsFromBody([])).toEqual([]);
  });
});

describe("calendar query translation", () => {
  it("translates our camelCase names to the upstream's", () => {
    const query = earningsQuerySchema.parse({
      from: "2026-01-01",
      to: "2026-01-31",
      tickers: "nwsc, brkx",
      importance: "3",
      sort: "date:asc",
      page: "2",
      pageSize: "250",
      updatedSince: "1769000000",
    });
    expect(toUpstreamCalendarQuery(query)).toEqual({
      page: 2,
      pagesize: 250,
      "parameters[date]": undefined,
      "parameters[date_from]": "2026-01-01",
      "parameters[date_to]": "2026-01-31",
      "parameters[tickers]": "NWSC,BRKX",
      "parameters[importance]": 3,
      "parameters[date_sort]": "date:asc",
      "parameters[updated]": 1769000000,
    });
  });

  it("passes M&A sorts and a single date through", () => {
    const query = maQuerySchema.parse({ date: "2026-02-02", sort: "expected" });
    expect(toUpstreamCalendarQuery(query)).toMatchObject({
      "parameters[date]": "2026-02-02",
      "parameters[date_sort]": "expected",
      page: 0,
      pagesize: 100,
    });
  });

  it("accepts updatedSince as an ISO date-time", () => {
    const query = earningsQuerySchema.parse({ updatedSince: "2026-01-01T00:00:00Z" });
    expect(query.updatedSince).toBe(Date.UTC(2026, 0, 1) / 1000);
  });
});
