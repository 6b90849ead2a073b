/**
 * US Eastern time (New York), the clock of the listing venues: earnings reports are dated and timed in it. The one
 * conversion between New York wall-clock time and instants for the whole repository, shared by the app and the
 * embedded service (docs/upstream.md §2).
 *
 * The offsets come from the runtime's time-zone database (Intl), so a change of the US rules reaches both sides with
 * a Node update. Intl is slow for hot loops (the embedded universe converts tens of thousands of report times), so
 * the changes of offset are found once per year (a search over Intl, a few dozen lookups) and then every conversion
 * is arithmetic.
 *
 * Wall times that do not exist or happen twice (the skipped hour in March, the repeated one in November) follow
 * Temporal's `compatible` disambiguation, as RFC 5545 does: a skipped time moves forward by the gap (02:30 on the
 * March change is 03:30 EDT), a repeated one is its first occurrence (01:30 on the November change is 01:30 EDT).
 *
 * Showing an instant to a person in New York time ("16:30 EST") is formatting, not a conversion: it is Intl's job with
 * `EASTERN_TIME_ZONE` (the app's lib/format.ts, the embedded service's enrichment PDF), as for any reader's zone.
 */

export const EASTERN_TIME_ZONE = "America/New_York";

const DAY_MS = 86_400_000;

let formatter: Intl.DateTimeFormat | undefined;

/** The offset of New York from UTC at an instant, in ms (−5 h in winter, −4 h in summer), straight from Intl. */
function intlOffsetMs(instantMs: number): number {
  formatter ??= new Intl.DateTimeFormat("en-US", {
    timeZone: EASTERN_TIME_ZONE,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  });
  const parts: Record<string, number> = {};
  for (const part of formatter.formatToParts(instantMs)) parts[part.type] = Number(part.value);
  const wallAsUtc = Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  return wallAsUtc - (instantMs - (((instantMs % 1000) + 1000) % 1000));
}

interface YearOffsets {
  /** Offset in force at the start of the UTC year. */
  initial: number;
  /** Each change within the year: from `atMs` on (an instant), `offsetMs` is in force. */
  changes: { atMs: number; offsetMs: number }[];
}

const years = new Map<number, YearOffsets>();

/** The first instant in (lowMs, highMs] at which the offset is no longer `before` (there is one). */
function changeBetween(lowMs: number, highMs: number, before: number): number {
  let low = lowMs;
  let high = highMs;
  while (high - low > 1000) {
    const mid = low + Math.floor((high - low) / 2000) * 1000;
    if (intlOffsetMs(mid) === before) low = mid;
    else high = mid;
  }
  return high;
}

function offsetsOf(year: number): YearOffsets {
  let known = years.get(year);
  if (known) return known;
  const start = Date.UTC(year, 0, 1);
  const initial = intlOffsetMs(start);
  const changes: YearOffsets["changes"] = [];
  // Changes are months apart: sampling every week of the year finds each between two samples.
  let previousMs = start;
  let previous = initial;
  for (let week = 1; week <= 53; week++) {
    const atMs = Math.min(start + week * 7 * DAY_MS, Date.UTC(year + 1, 0, 1));
    const offset = intlOffsetMs(atMs);
    if (offset !== previous) {
      const changeMs = changeBetween(previousMs, atMs, previous);
      changes.push({ atMs: changeMs, offsetMs: intlOffsetMs(changeMs) });
    }
    previousMs = atMs;
    previous = offset;
  }
  known = { initial, changes };
  years.set(year, known);
  return known;
}

/** The offset of New York from UTC at an instant, in ms: −5 h (EST) or −4 h (EDT). */
export function easternOffsetMs(instantMs: number): number {
  const { initial, changes } = offsetsOf(new Date(instantMs).getUTCFullYear());
  let offset = initial;
  for (const change of changes) if (instantMs >= change.atMs) offset = change.offsetMs;
  return offset;
}

export interface WallTime {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** New York's wall-clock date and time at an instant. */
export function easternWallTime(instantMs: number): WallTime {
  const wall = new Date(instantMs + easternOffsetMs(instantMs));
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** New York's calendar date at an instant (epoch ms or a Date), YYYY-MM-DD. */
export function easternDate(instant: number | Date): string {
  const { year, month, day } = easternWallTime(typeof instant === "number" ? instant : instant.getTime());
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** HH:MM or HH:MM:SS; a missing leading zero (9:30) is read too, as some feeds write it. */
const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;

/**
 * The instant (epoch ms) of a New York wall-clock date and time ("2026-11-27", "16:05:00"); null when either is
 * malformed or out of range. Skipped and repeated times as the module comment says.
 */
export function easternToUtcMs(date: string, time: string): number | null {
  const d = DATE.exec(date);
  const t = TIME.exec(time);
  if (!d || !t) return null;
  const [year, month, day] = [Number(d[1]), Number(d[2]), Number(d[3])];
  const [hour, minute, second] = [Number(t[1]), Number(t[2]), Number(t[3] ?? 0)];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const wallAsUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  // Day 31 of a 30-day month rolls over in Date.UTC: refuse it rather than answer another day.
  if (new Date(wallAsUtc).getUTCDate() !== day) return null;
  // The offsets in force a day either side bracket every reading of this wall time; with the earlier one first, a
  // repeated time is its first occurrence.
  const before = easternOffsetMs(wallAsUtc - DAY_MS);
  const after = easternOffsetMs(wallAsUtc + DAY_MS);
  const withBefore = wallAsUtc - before;
  if (easternOffsetMs(withBefore) === before) return withBefore;
  const withAfter = wallAsUtc - after;
  if (easternOffsetMs(withAfter) === after) return withAfter;
  // In the gap: the wall time read with the offset before the change, i.e. moved forward by the gap.
  return withBefore;
}

/** `easternToUtcMs` as a Date, for callers that format it. */
export function easternToDate(date: string, time: string): Date | null {
  const ms = easternToUtcMs(date, time);
  return ms === null ? null : new Date(ms);
}
