import { describe, expect, it } from "vitest";
import { easternDate, easternOffsetMs, easternToUtcMs, easternWallTime, EASTERN_TIME_ZONE } from "./eastern";

const HOUR_MS = 3_600_000;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** New York's wall time at an instant as Intl says it, the reference the fast path must agree with. */
const intl = new Intl.DateTimeFormat("en-US", {
  timeZone: EASTERN_TIME_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
});
function intlWallTime(ms: number) {
  const parts = Object.fromEntries(intl.formatToParts(ms).map((p) => [p.type, Number(p.value)]));
  const { year, month, day, hour, minute, second } = parts;
  return { year, month, day, hour, minute, second };
}

describe("easternToUtcMs", () => {
  it("reads winter (EST, UTC−5) and summer (EDT, UTC−4) times, and the leap day", () => {
    expect(iso(easternToUtcMs("2025-01-15", "16:05:00"))).toBe("2025-01-15T21:05:00.000Z");
    expect(iso(easternToUtcMs("2025-07-15", "08:00"))).toBe("2025-07-15T12:00:00.000Z");
    expect(iso(easternToUtcMs("2028-02-29", "07:00:00"))).toBe("2028-02-29T12:00:00.000Z");
    expect(iso(easternToUtcMs("2026-12-31", "23:59:59"))).toBe("2027-01-01T04:59:59.000Z");
    expect(iso(easternToUtcMs("2026-11-27", "9:30"))).toBe("2026-11-27T14:30:00.000Z");
  });

  it("follows the March change: 01:59:59 EST, then 03:00 EDT; the skipped 02:30 moves forward by the hour", () => {
    expect(iso(easternToUtcMs("2026-03-08", "01:59:59"))).toBe("2026-03-08T06:59:59.000Z");
    expect(iso(easternToUtcMs("2026-03-08", "03:00:00"))).toBe("2026-03-08T07:00:00.000Z");
    expect(iso(easternToUtcMs("2026-03-08", "02:30:00"))).toBe("2026-03-08T07:30:00.000Z");
    expect(iso(easternToUtcMs("2027-03-14", "08:30:00"))).toBe("2027-03-14T12:30:00.000Z");
    expect(iso(easternToUtcMs("2027-03-13", "08:30:00"))).toBe("2027-03-13T13:30:00.000Z");
  });

  it("follows the November change: the repeated 01:30 is its first occurrence (EDT), 02:00 is EST", () => {
    expect(iso(easternToUtcMs("2026-11-01", "00:59:59"))).toBe("2026-11-01T04:59:59.000Z");
    expect(iso(easternToUtcMs("2026-11-01", "01:30:00"))).toBe("2026-11-01T05:30:00.000Z");
    expect(iso(easternToUtcMs("2026-11-01", "02:00:00"))).toBe("2026-11-01T07:00:00.000Z");
    expect(iso(easternToUtcMs("2027-11-07", "16:05:00"))).toBe("2027-11-07T21:05:00.000Z");
    expect(iso(easternToUtcMs("2027-11-06", "16:05:00"))).toBe("2027-11-06T20:05:00.000Z");
  });

  it.each([
    ["2026-13-01", "10:00"],
    ["2026-02-30", "10:00"],
    ["2027-02-29", "10:00"],
    ["2026-1-15", "10:00"],
    ["2026-01-15", "24:00"],
    ["2026-01-15", "10:60"],
    ["2026-01-15", "16:5"],
    ["2026-01-15", ""],
    ["", "10:00"],
  ])("refuses %s %s", (date, time) => {
    expect(easternToUtcMs(date, time)).toBeNull();
  });

  it("inverts easternWallTime at every half hour of 2026–2028, but for the repeated hour's second pass", () => {
    const from = Date.UTC(2026, 0, 1);
    const to = Date.UTC(2029, 0, 1);
    let repeated = 0;
    for (let ms = from; ms < to; ms += HOUR_MS / 2) {
      const w = easternWallTime(ms);
      const pad = (n: number) => String(n).padStart(2, "0");
      const back = easternToUtcMs(
        `${w.year}-${pad(w.month)}-${pad(w.day)}`,
        `${pad(w.hour)}:${pad(w.minute)}`,
      );
      if (back !== ms) {
        // 01:00–01:59 EST on the first Sunday of November reads as the same time an hour earlier, in EDT.
        expect(back).toBe(ms - HOUR_MS);
        repeated++;
      }
    }
    expect(repeated).toBe(3 * 2);
  });
});

describe("easternWallTime, easternDate, easternOffsetMs", () => {
  it("agree with Intl's time-zone database from 2018 to 2035, to the second around each change of offset", () => {
    const mismatches: string[] = [];
    const check = (ms: number) => {
      const expected = intlWallTime(ms);
      if (JSON.stringify(easternWallTime(ms)) !== JSON.stringify(expected)) mismatches.push(iso(ms)!);
    };
    let changes = 0;
    for (let ms = Date.UTC(2018, 0, 1); ms < Date.UTC(2035, 0, 1); ms += 5 * HOUR_MS + 17 * 60_000) {
      check(ms);
      // A change of offset within the step: every quarter hour of the day around it, every second of its minute.
      // (A change the fast path missed would show in the coarse checks: months an hour off.)
      if (easternOffsetMs(ms) !== easternOffsetMs(ms + 5 * HOUR_MS)) {
        changes++;
        for (let q = -48; q <= 48; q++) check(ms + q * 15 * 60_000);
        for (let t = ms; t <= ms + 5 * HOUR_MS; t += 60_000)
          if (easternOffsetMs(t) !== easternOffsetMs(t + 60_000))
            for (let s = -30; s <= 90; s++) check(t + s * 1000);
      }
    }
    expect(changes).toBe(2 * 17);
    expect(mismatches.slice(0, 10)).toEqual([]);
  });

  it("changes the offset at 02:00 local time exactly", () => {
    expect(easternOffsetMs(Date.parse("2026-03-08T06:59:59.999Z"))).toBe(-5 * HOUR_MS);
    expect(easternOffsetMs(Date.parse("2026-03-08T07:00:00.000Z"))).toBe(-4 * HOUR_MS);
    expect(easternOffsetMs(Date.parse("2026-11-01T05:59:59.999Z"))).toBe(-4 * HOUR_MS);
    expect(easternOffsetMs(Date.parse("2026-11-01T06:00:00.000Z"))).toBe(-5 * HOUR_MS);
  });

  it("dates an instant by New York's calendar, across midnight and the new year", () => {
    expect(easternDate(Date.parse("2026-01-16T04:59:59Z"))).toBe("2026-01-15");
    expect(easternDate(Date.parse("2026-01-16T05:00:00Z"))).toBe("2026-01-16");
    expect(easternDate(Date.parse("2026-07-16T03:59:59Z"))).toBe("2026-07-15");
    expect(easternDate(Date.parse("2026-07-16T04:00:00Z"))).toBe("2026-07-16");
    expect(easternDate(Date.parse("2027-01-01T04:59:00Z"))).toBe("2026-12-31");
    expect(easternDate(Date.parse("2028-03-01T04:00:00Z"))).toBe("2028-02-29");
    expect(easternWallTime(Date.parse("2028-02-29T20:05:30Z"))).toEqual({
      year: 2028,
      month: 2,
      day: 29,
      hour: 15,
      minute: 5,
      second: 30,
    });
  });
});
