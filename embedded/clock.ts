/**
 * The service's clock (docs/upstream.md §7, `EMBEDDED_NOW`). Everything the demo world shows depends on "now": the
 * calendar's window, which reports have actuals, which calls are history, when the next release goes live. A clock
 * set to an instant starts there when the service starts and then runs at real speed, so live calls still progress,
 * releases still happen and a date-dependent behaviour can be reproduced exactly on any day.
 *
 * What it does not shift: signed media links (the app checks their expiry against its own clock), WebSocket pings
 * and every other duration the service measures on the real clock.
 */
import { MODEL_FIRST_YEAR, MODEL_LAST_YEAR } from "./universe/model";

/** Epoch milliseconds of the service's "now". */
export type Clock = () => number;

/** The span the universe models with a year of history behind and a quarter ahead (universe/model.ts). */
export const CLOCK_FIRST_MS = Date.UTC(MODEL_FIRST_YEAR + 4, 0, 1);
export const CLOCK_LAST_MS = Date.UTC(MODEL_LAST_YEAR - 1, 11, 31, 23, 59, 59, 999);

/**
 * A clock that reads `startMs` now and advances with `real` (default `Date.now`); the real clock without `startMs`.
 */
export function serviceClock(startMs?: number, real: Clock = Date.now): Clock {
  if (startMs === undefined) return real;
  const offset = startMs - real();
  return () => real() + offset;
}
