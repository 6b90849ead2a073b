/**
 * The dates the demo is checked on (issue 29): quarter ends, year ends, the 2028 leap day, the four US daylight-saving
 * changes of 2026–2027, the day CI turned red, and a date or two in every other month, over two years. The history's
 * invariants are checked in process on each of them (test/live/history-year.test.ts), and `npm run test:dates` runs the
 * date-sensitive suites with `EMBEDDED_NOW` set to each (scripts/test-dates.ts; docs/embedded-history.md).
 */
import { CLOCK_FIRST_MS, CLOCK_LAST_MS } from "../clock";

export const YEAR_DATES = [
  // The US daylight-saving changes, at the instant of the change (02:00 local) and later that day.
  "2026-03-08T07:00:00Z",
  "2026-11-01T06:00:00Z",
  "2027-03-14T15:00:00Z",
  "2027-11-07T06:30:00Z",
  // Quarter ends and year ends, late in the New York evening (the next day in UTC) and at midday.
  "2026-03-31T15:00:00Z",
  "2026-06-30T23:30:00Z",
  "2026-09-30T15:00:00Z",
  "2026-12-31T23:59:00Z",
  "2027-01-01T05:00:00Z",
  "2027-03-31T15:00:00Z",
  "2027-06-30T15:00:00Z",
  "2027-09-30T21:00:00Z",
  "2027-12-31T15:00:00Z",
  "2028-01-01T04:59:00Z",
  // The leap day and the days around it.
  "2028-02-28T15:00:00Z",
  "2028-02-29T15:00:00Z",
  "2028-03-01T02:00:00Z",
  // The day CI turned red (MAGE Q3 2027 without guidance) and the day before it was green.
  "2026-11-25T15:00:00Z",
  "2026-11-27T15:00:00Z",
  // The rest of the year, a date or two a month.
  "2026-04-15T13:00:00Z",
  "2026-05-20T20:30:00Z",
  "2026-07-15T11:00:00Z",
  "2026-08-14T16:00:00Z",
  "2026-10-15T12:30:00Z",
  "2027-02-15T15:00:00Z",
  "2027-05-14T15:00:00Z",
  "2027-08-16T09:00:00Z",
  "2027-10-20T18:00:00Z",
] as const;

/** The first and last instants `EMBEDDED_NOW` accepts (clock.ts): the demo must hold there too. */
export const SPAN_ENDS = [
  new Date(CLOCK_FIRST_MS).toISOString(),
  new Date(CLOCK_LAST_MS).toISOString(),
] as const;
