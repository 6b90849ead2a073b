"use client";

import { MISSING, formatDateTime, formatSince, formatTimeInZone } from "@/lib/format";
import { useTimeZone } from "./use-time-zone";

/**
 * An instant in the reader's time zone (see useTimeZone for why the zone is never the runtime's default), as a
 * <time> element with the machine-readable value. `datetime`: "Nov 24, 2025, 4:05 PM EST"; `time`: "4:05 PM EST";
 * `since`: the time alone on the same day, the full date otherwise, with the full date in the tooltip.
 */
export function LocalTime({
  value,
  format = "datetime",
  timeZone,
  className,
}: {
  /** ISO 8601 instant. */
  value: string | null | undefined;
  format?: "datetime" | "time" | "since";
  /** A zone to use instead of the reader's (the calendars let the reader pick). */
  timeZone?: string;
  className?: string;
}) {
  const readerZone = useTimeZone();
  const zone = timeZone ?? readerZone;
  if (!value) return <span className={className}>{MISSING}</span>;
  const instant = new Date(value);
  if (Number.isNaN(instant.getTime())) return <span className={className}>{MISSING}</span>;
  const text =
    format === "time"
      ? formatTimeInZone(instant, zone)
      : format === "since"
        ? formatSince(instant, zone)
        : formatDateTime(instant, zone);
  return (
    <time
      dateTime={value}
      title={format === "datetime" ? undefined : formatDateTime(instant, zone)}
      className={className}
    >
      {text}
    </time>
  );
}
