import { describe, expect, it } from "vitest";
import { easternToIso, pickNumbers, toBool, toIsoDate, toNumber, toText } from "./values";

describe("wire value helpers", () => {
  it("reads decimal strings, numbers and empty strings", () => {
    expect(toNumber("1.990")).toBe(1.99);
    expect(toNumber("102466000000.000")).toBe(102466000000);
    expect(toNumber("")).toBeNull();
    expect(toNumber("N/A")).toBeNull();
    expect(toNumber(Number.NaN)).toBeNull();
    expect(toText("  ")).toBeNull();
    expect(toBool("true")).toBe(true);
    expect(toBool(0)).toBe(false);
    expect(toBool("maybe")).toBeNull();
  });

  it("reads dates as YYYY-MM-DD, ISO date-times or Unix seconds, including pre-1970 ones", () => {
    expect(toIsoDate("2025-12-31")).toBe("2025-12-31");
    expect(toIsoDate("2025-12-31T00:00:00Z")).toBe("2025-12-31");
    expect(toIsoDate("345427200")).toBe("1980-12-12");
    expect(toIsoDate("-86400")).toBe("1969-12-31");
    expect(toIsoDate("")).toBeNull();
  });

  it("converts US Eastern wall time to UTC across daylight-saving changes", () => {
    expect(easternToIso("2026-01-15", "09:30:00")).toBe("2026-01-15T14:30:00.000Z");
    expect(easternToIso("2026-06-15", "16:00")).toBe("2026-06-15T20:00:00.000Z");
    // 2026-03-08 is the spring-forward day: 08:00 is already EDT.
    expect(easternToIso("2026-03-08", "08:00:00")).toBe("2026-03-08T12:00:00.000Z");
    expect(easternToIso("2026-03-08", null)).toBeNull();
    expect(easternToIso("soon", "08:00:00")).toBeNull();
  });

  it("picks numbers case-insensitively", () => {
    expect(pickNumbers({ PERatio: "12", EBITDAMargin: 0.3 }, ["peRatio", "ebitdaMargin", "x"])).toEqual({
      peRatio: 12,
      ebitdaMargin: 0.3,
      x: null,
    });
  });
});
