/**
 * Calendar helpers on UTC dates. New York time (report times are quoted in it) is common/time/eastern.ts, shared
 * with the app.
 */

export const DAY_MS = 86_400_000;

/** `Date.UTC` for a calendar date (month 1–12). */
export const utcDate = (year: number, month: number, day: number): number => Date.UTC(year, month - 1, day);

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/** YYYY-MM-DD of a UTC instant (civil-from-days arithmetic: `toISOString` is slow in the build's hot loops). */
export function ymd(ms: number): string {
  const z = Math.floor(ms / DAY_MS) + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return `${year}-${pad2(month)}-${pad2(day)}`;
}

export const parseYmd = (text: string): number => {
  const [y, m, d] = text.split("-").map(Number);
  return utcDate(y ?? 1970, m ?? 1, d ?? 1);
};

export const daysInMonth = (year: number, month: number): number =>
  new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Last calendar day of the month, as UTC midnight ms. */
export const monthEnd = (year: number, month: number): number =>
  utcDate(year, month, daysInMonth(year, month));

/** Day of week of a UTC-midnight date: 0 = Sunday. */
export const weekday = (ms: number): number => new Date(ms).getUTCDay();
