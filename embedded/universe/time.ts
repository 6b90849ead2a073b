/** Calendar helpers on UTC dates, plus US Eastern wall-clock time (report times are quoted in New York time). */

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

/** Day of the month of the n-th Sunday (n ≥ 1) of a month. */
const nthSunday = (year: number, month: number, n: number): number => {
  const first = weekday(utcDate(year, month, 1));
  return 1 + ((7 - first) % 7) + 7 * (n - 1);
};

/**
 * Is US daylight saving time in force at this wall-clock moment in New York? Rules since 2007: from the second
 * Sunday of March 02:00 to the first Sunday of November 02:00. Hand-written so the universe needs no tz database.
 */
export function isEasternDst(year: number, month: number, day: number, hour: number): boolean {
  if (month < 3 || month > 11) return false;
  if (month > 3 && month < 11) return true;
  if (month === 3) {
    const start = nthSunday(year, 3, 2);
    return day > start || (day === start && hour >= 2);
  }
  const end = nthSunday(year, 11, 1);
  return day < end || (day === end && hour < 2);
}

/** UTC ms of a New York wall-clock time (`hms` = "HH:MM:SS") on a date given as UTC midnight ms. */
export function easternToUtc(dateMs: number, hms: string): number {
  const d = new Date(dateMs);
  const [h, m, s] = hms.split(":").map(Number);
  const hour = h ?? 0;
  const offsetHours = isEasternDst(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), hour) ? 4 : 5;
  return dateMs + ((hour + offsetHours) * 3600 + (m ?? 0) * 60 + (s ?? 0)) * 1000;
}

/** The New York calendar date (UTC midnight ms) of a UTC instant. */
export function easternDate(ms: number): number {
  // Try EDT first; if that wall time is not in DST, the offset was EST.
  const edt = new Date(ms - 4 * 3600_000);
  const isDst = isEasternDst(
    edt.getUTCFullYear(),
    edt.getUTCMonth() + 1,
    edt.getUTCDate(),
    edt.getUTCHours(),
  );
  const local = new Date(ms - (isDst ? 4 : 5) * 3600_000);
  return utcDate(local.getUTCFullYear(), local.getUTCMonth() + 1, local.getUTCDate());
}
