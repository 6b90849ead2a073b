import { describe, expect, it } from "vitest";
import {
  formatCount,
  MISSING,
  addDaysIso,
  formatCompact,
  formatDate,
  formatDateTime,
  formatEps,
  formatFractionAsPercent,
  formatMoney,
  formatMultiple,
  formatPercent,
  formatRelative,
  formatSince,
  formatTimeInZone,
  isoDateInZone,
  marketSession,
  monthName,
  presetRange,
  signOf,
} from "./format";

describe("money", () => {
  it("uses units with two decimals", () => {
    expect(formatMoney(1_234_000_000)).toBe("$1.23B");
    expect(formatMoney(102_466_000_000)).toBe("$102.47B");
    expect(formatMoney(4_500_000)).toBe("$4.50M");
    expect(formatMoney(2_100_000_000_000)).toBe("$2.10T");
    expect(formatMoney(12_300)).toBe("$12.30K");
    expect(formatMoney(950)).toBe("$950");
  });
  it("rounds up into the next unit instead of showing 1,000.00K", () => {
    expect(formatMoney(999_999)).toBe("$1.00M");
  });
  it("puts the minus before the currency", () => {
    expect(formatMoney(-4_500_000)).toBe("\u2212$4.50M");
  });
  it("shows a dash for anything missing, never NaN", () => {
    expect(formatMoney(null)).toBe(MISSING);
    expect(formatMoney(undefined)).toBe(MISSING);
    expect(formatMoney(Number.NaN)).toBe(MISSING);
    expect(formatMoney(Infinity)).toBe(MISSING);
  });
  it("prefixes other currencies by symbol or code", () => {
    expect(formatMoney(1_500_000, "EUR")).toBe("€1.50M");
    expect(formatMoney(1_500_000, "CHF")).toBe("CHF 1.50M");
  });
});

describe("EPS and numbers", () => {
  it("formats EPS with two decimals", () => {
    expect(formatEps(1.99)).toBe("1.99");
    expect(formatEps(2)).toBe("2.00");
    expect(formatEps(-0.1)).toBe("\u22120.10");
    expect(formatEps(null)).toBe(MISSING);
  });
  it("never shows a negative zero", () => {
    expect(formatEps(-0.001)).toBe("0.00");
    expect(formatPercent(-0.01)).toBe("0.0%");
  });
  it("formats compact counts", () => {
    expect(formatCompact(15_234_000)).toBe("15.23M");
    expect(formatCompact(12)).toBe("12");
  });
  it("formats multiples", () => {
    expect(formatMultiple(23.456)).toBe("23.46×");
  });
});

describe("percentages", () => {
  it("shows the sign of a change", () => {
    expect(formatPercent(4.123)).toBe("+4.1%");
    expect(formatPercent(-2.04)).toBe("\u22122.0%");
    expect(formatPercent(0)).toBe("0.0%");
  });
  it("can leave the sign out and change decimals", () => {
    expect(formatPercent(4.123, { sign: false, decimals: 2 })).toBe("4.12%");
  });
  it("shows fractions as percentages", () => {
    expect(formatFractionAsPercent(0.4123)).toBe("41.2%");
  });
  it("classifies signs for beat/miss colouring", () => {
    expect(signOf(0.5)).toBe(1);
    expect(signOf(-0.5)).toBe(-1);
    expect(signOf(0)).toBe(0);
    expect(signOf(null)).toBeNull();
  });
});

describe("time zones", () => {
  it("names the market session", () => {
    expect(marketSession("07:00:00")).toBe("bmo");
    expect(marketSession("09:29:59")).toBe("bmo");
    expect(marketSession("09:30:00")).toBe("dmh");
    expect(marketSession("16:00:00")).toBe("amc");
    expect(marketSession("")).toBeNull();
  });
  it("formats times with their zone", () => {
    const instant = new Date("2025-01-15T21:05:00Z");
    expect(formatTimeInZone(instant, "America/New_York")).toBe("4:05 PM EST");
    expect(formatTimeInZone(instant, "UTC")).toBe("9:05 PM UTC");
    expect(formatDateTime(instant, "America/New_York")).toBe("Jan 15, 2025, 4:05 PM EST");
    expect(formatDateTime(null)).toBe(MISSING);
    expect(formatDateTime("not a date")).toBe(MISSING);
  });
  it("formats calendar dates without shifting them by the zone", () => {
    expect(formatDate("2025-11-24")).toBe("Nov 24, 2025");
    expect(formatDate("2025-11-24", { weekday: true, year: false })).toBe("Mon, Nov 24");
    expect(formatDate("")).toBe(MISSING);
    expect(formatDate("2025-Q3")).toBe("2025-Q3");
  });
  it("formats relative times", () => {
    const now = new Date("2025-01-15T12:00:00Z");
    expect(formatRelative(new Date("2025-01-15T11:57:00Z"), now)).toBe("3 min ago");
    expect(formatRelative(new Date("2025-01-15T14:00:00Z"), now)).toBe("in 2 h");
    expect(formatRelative(new Date("2025-01-15T11:59:50Z"), now)).toBe("just now");
  });
});

describe("date presets", () => {
  it("uses the exchange's date, not UTC's", () => {
    // 02:00 UTC on the 16th is still the 15th in New York.
    expect(presetRange("today", new Date("2025-01-16T02:00:00Z"))).toEqual({
      from: "2025-01-15",
      to: "2025-01-15",
    });
    expect(isoDateInZone(new Date("2025-01-16T02:00:00Z"), "Asia/Tokyo")).toBe("2025-01-16");
  });
  it("gives today, this week and next week as Monday–Sunday ranges", () => {
    const wednesday = new Date("2025-01-15T15:00:00Z");
    expect(presetRange("today", wednesday)).toEqual({ from: "2025-01-15", to: "2025-01-15" });
    expect(presetRange("this-week", wednesday)).toEqual({ from: "2025-01-13", to: "2025-01-19" });
    expect(presetRange("next-week", wednesday)).toEqual({ from: "2025-01-20", to: "2025-01-26" });
    expect(presetRange("yesterday", wednesday)).toEqual({ from: "2025-01-14", to: "2025-01-14" });
    expect(presetRange("last-week", wednesday)).toEqual({ from: "2025-01-06", to: "2025-01-12" });
    expect(presetRange("last-30-days", wednesday)).toEqual({ from: "2024-12-17", to: "2025-01-15" });
    const sunday = new Date("2025-01-19T15:00:00Z");
    expect(presetRange("this-week", sunday)).toEqual({ from: "2025-01-13", to: "2025-01-19" });
  });
  it("adds days across month ends", () => {
    expect(addDaysIso("2025-01-31", 1)).toBe("2025-02-01");
    expect(addDaysIso("2025-03-01", -1)).toBe("2025-02-28");
  });
});

describe("formatSince", () => {
  const now = new Date("2026-01-05T18:30:00Z");
  it("gives only the time with its zone on the same day, the full timestamp on another", () => {
    expect(formatSince("2026-01-05T14:02:00Z", "UTC", now)).toBe("2:02 PM UTC");
    expect(formatSince("2026-01-04T14:02:00Z", "UTC", now)).toBe("Jan 4, 2026, 2:02 PM UTC");
  });
  it("never prints garbage for missing or bad input", () => {
    expect(formatSince(null, "UTC", now)).toBe(MISSING);
    expect(formatSince("not a date", "UTC", now)).toBe(MISSING);
  });
});

describe("formatCount", () => {
  it("puts the noun in the right number, with thousands separators", () => {
    expect(formatCount(1, "sentence")).toBe("1 sentence");
    expect(formatCount(0, "sentence")).toBe("0 sentences");
    expect(formatCount(1204, "call")).toBe("1,204 calls");
    expect(formatCount(2, "company", "companies")).toBe("2 companies");
  });
});

describe("monthName", () => {
  it("names a month given as a number, and leaves anything else as it came", () => {
    expect(monthName("12")).toBe("December");
    expect(monthName("03")).toBe("March");
    expect(monthName(1)).toBe("January");
    expect(monthName("13")).toBe("13");
    expect(monthName(null)).toBe("—");
  });
});
