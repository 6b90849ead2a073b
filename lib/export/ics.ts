/**
 * iCalendar (RFC 5545) generation for calendar exports: TEXT escaping (§3.3.11), content lines folded at 75
 * octets of UTF-8 without splitting a character (§3.1), CRLF line ends, UTC date-times.
 */

export interface IcsEvent {
  uid: string;
  summary: string;
  description?: string;
  url?: string;
  /** A timed event (instant, written in UTC) or an all-day event (YYYY-MM-DD). */
  start: { instant: Date } | { date: string };
  durationMinutes?: number;
  /** Changes of the record (Unix seconds) raise SEQUENCE so calendar apps replace the old copy. */
  sequence?: number;
  lastModified?: Date;
}

export interface IcsOptions {
  prodId?: string;
  calendarName?: string;
  now?: Date;
}

/** Escapes a TEXT value: backslash, semicolon, comma and newlines. */
export function escapeIcsText(value: string): string {
  return value
    .replaceAll("\\", "\\\\")
    .replaceAll(";", "\\;")
    .replaceAll(",", "\\,")
    .replaceAll(/\r\n|\r|\n/g, "\\n");
}

const encoder = new TextEncoder();

/** Folds one content line into chunks of at most 75 octets; continuation lines start with one space. */
export function foldIcsLine(line: string): string {
  const parts: string[] = [];
  let current = "";
  let currentBytes = 0;
  let limit = 75;
  for (const char of line) {
    const bytes = encoder.encode(char).length;
    if (currentBytes + bytes > limit) {
      parts.push(current);
      current = "";
      currentBytes = 0;
      // The leading space of a continuation line counts toward its 75 octets.
      limit = 74;
    }
    current += char;
    currentBytes += bytes;
  }
  parts.push(current);
  return parts.join("\r\n ");
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

export function icsDateTimeUtc(instant: Date): string {
  return (
    `${instant.getUTCFullYear()}${pad(instant.getUTCMonth() + 1)}${pad(instant.getUTCDate())}` +
    `T${pad(instant.getUTCHours())}${pad(instant.getUTCMinutes())}${pad(instant.getUTCSeconds())}Z`
  );
}

function icsDate(date: string): string {
  return date.replaceAll("-", "");
}

function nextDay(date: string): string {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + 1)).toISOString().slice(0, 10);
}

/** Property parameters and UIDs are not TEXT: strip what would break the line instead of escaping. */
function safeValue(value: string): string {
  return value.replaceAll(/[\r\n]/g, " ");
}

export function toIcs(events: readonly IcsEvent[], options: IcsOptions = {}): string {
  const { prodId = "-//Callroom//Earnings calendar//EN", calendarName, now = new Date() } = options;
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    `PRODID:${safeValue(prodId)}`,
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
  ];
  if (calendarName) lines.push(`X-WR-CALNAME:${escapeIcsText(calendarName)}`);
  const stamp = icsDateTimeUtc(now);
  for (const event of events) {
    lines.push("BEGIN:VEVENT", `UID:${safeValue(event.uid)}`, `DTSTAMP:${stamp}`);
    if ("instant" in event.start) {
      const end = new Date(event.start.instant.getTime() + (event.durationMinutes ?? 60) * 60_000);
      lines.push(`DTSTART:${icsDateTimeUtc(event.start.instant)}`, `DTEND:${icsDateTimeUtc(end)}`);
    } else {
      lines.push(
        `DTSTART;VALUE=DATE:${icsDate(event.start.date)}`,
        `DTEND;VALUE=DATE:${icsDate(nextDay(event.start.date))}`,
      );
    }
    lines.push(`SUMMARY:${escapeIcsText(event.summary)}`);
    if (event.description) lines.push(`DESCRIPTION:${escapeIcsText(event.description)}`);
    if (event.url) lines.push(`URL:${safeValue(event.url)}`);
    if (event.sequence !== undefined) lines.push(`SEQUENCE:${Math.max(0, Math.trunc(event.sequence))}`);
    if (event.lastModified) lines.push(`LAST-MODIFIED:${icsDateTimeUtc(event.lastModified)}`);
    lines.push("TRANSP:TRANSPARENT", "END:VEVENT");
  }
  lines.push("END:VCALENDAR");
  return `${lines.map(foldIcsLine).join("\r\n")}\r\n`;
}
