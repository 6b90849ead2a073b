import { describe, expect, it } from "vitest";
import { escapeIcsText, foldIcsLine, toIcs } from "./ics";

const encoder = new TextEncoder();

describe("ICS", () => {
  it("escapes TEXT values", () => {
    expect(escapeIcsText("a,b;c\\d\ne")).toBe("a\\,b\\;c\\\\d\\ne");
    expect(escapeIcsText("x\r\ny")).toBe("x\\ny");
  });

  it("folds long lines at 75 octets with a leading space on continuations", () => {
    const line = `DESCRIPTION:${"x".repeat(200)}`;
    const folded = foldIcsLine(line);
    const parts = folded.split("\r\n");
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts) expect(encoder.encode(part).length).toBeLessThanOrEqual(75);
    expect(parts.slice(1).every((p) => p.startsWith(" "))).toBe(true);
    expect(parts.map((p, i) => (i === 0 ? p : p.slice(1))).join("")).toBe(line);
  });

  it("never splits a multi-byte character when folding", () => {
    const line = `SUMMARY:${"é€😀".repeat(40)}`;
    const parts = foldIcsLine(line).split("\r\n");
    for (const part of parts) {
      expect(encoder.encode(part).length).toBeLessThanOrEqual(75);
      expect(part).not.toContain("\uFFFD");
    }
    expect(parts.map((p, i) => (i === 0 ? p : p.slice(1))).join("")).toBe(line);
  });

  it("leaves short lines alone", () => {
    expect(foldIcsLine("SUMMARY:short")).toBe("SUMMARY:short");
  });

  it("builds a calendar with timed and all-day events", () => {
    const ics = toIcs(
      [
        {
          uid: "e1@callroom",
          summary: "NWSC Q3 2025 earnings, AMC",
          description: "EPS est. 1.99\nRevenue est. $4.20B",
          start: { instant: new Date("2025-01-15T21:05:00Z") },
          durationMinutes: 60,
        },
        { uid: "e2@callroom", summary: "ACME; FY", start: { date: "2025-01-31" } },
      ],
      { now: new Date("2025-01-01T00:00:00Z"), calendarName: "Earnings" },
    );
    const lines = ics.split("\r\n");
    expect(lines[0]).toBe("BEGIN:VCALENDAR");
    expect(lines).toContain("VERSION:2.0");
    expect(lines).toContain("X-WR-CALNAME:Earnings");
    expect(lines).toContain("DTSTART:20250115T210500Z");
    expect(lines).toContain("DTEND:20250115T220500Z");
    expect(lines).toContain("DTSTAMP:20250101T000000Z");
    expect(lines).toContain("SUMMARY:NWSC Q3 2025 earnings\\, AMC");
    expect(lines).toContain("DESCRIPTION:EPS est. 1.99\\nRevenue est. $4.20B");
    expect(lines).toContain("DTSTART;VALUE=DATE:20250131");
    expect(lines).toContain("DTEND;VALUE=DATE:20250201");
    expect(lines).toContain("SUMMARY:ACME\\; FY");
    expect(lines.filter((l) => l === "BEGIN:VEVENT")).toHaveLength(2);
    expect(lines.at(-2)).toBe("END:VCALENDAR");
    expect(ics.endsWith("\r\n")).toBe(true);
    // No bare LF anywhere: every line ends in CRLF.
    expect(ics.replaceAll("\r\n", "")).not.toMatch(/[\r\n]/);
  });

  it("keeps line breaks in UIDs from breaking the file", () => {
    const ics = toIcs([{ uid: "bad\nuid", summary: "x", start: { date: "2025-01-01" } }]);
    expect(ics).toContain("UID:bad uid");
  });
});
