/**
 * One formatter per kind of figure (docs/interfaces.md §6): money with units ($1.23B), EPS to 2 decimals, percentages
 * with sign (+4.1%), "—" for anything missing. Never returns "NaN", "null" or "undefined".
 *
 * Negative numbers use the typographic minus (U+2212) so columns of tabular figures line up; exports (CSV, ICS)
 * use raw numbers and never go through these functions.
 */
import { EASTERN_TIME_ZONE, easternDate } from "@/common/time/eastern";

export const MISSING = "—";
const MINUS = "\u2212";

type Num = number | null | undefined;

function isFiniteNumber(value: Num): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

function withSign(text: string, negative: boolean, plus: boolean): string {
  if (negative) return `${MINUS}${text}`;
  return plus ? `+${text}` : text;
}

/*
 * Formatters are built once per set of options and reused. Building an Intl formatter costs tens of microseconds
 * (a DateTimeFormat with a zone ≈ 90 µs here, several times that on a phone), using one about one: a table of a
 * hundred rows formats hundreds of figures and dates in a render, on the server and again while the page hydrates.
 * `toLocaleString` with options builds a formatter on every call, so it is not used.
 */
function cached<F>(cache: Map<string, F>, key: string, build: () => F): F {
  let formatter = cache.get(key);
  if (!formatter) {
    formatter = build();
    cache.set(key, formatter);
  }
  return formatter;
}

const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function fixed(value: number, decimals: number): string {
  return cached(
    numberFormats,
    String(decimals),
    () =>
      new Intl.NumberFormat("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals }),
  ).format(value);
}

/** Rounds away the "-0.00" that toFixed produces for tiny negatives. */
function isNegativeAfterRounding(value: number, decimals: number): boolean {
  return value < 0 && Number(Math.abs(value).toFixed(decimals)) !== 0;
}

const UNITS: readonly [number, string][] = [
  [1e12, "T"],
  [1e9, "B"],
  [1e6, "M"],
  [1e3, "K"],
];

/** 1234567 → "1.23M"; under a thousand: plain with up to `smallDecimals` decimals. */
export function formatCompact(value: Num, decimals = 2, smallDecimals = 0): string {
  if (!isFiniteNumber(value)) return MISSING;
  const abs = Math.abs(value);
  for (const [size, unit] of UNITS) {
    // Largest unit first, compared after rounding, so 999,999 shows as "1.00M", not "1,000.00K".
    if (Number((abs / size).toFixed(decimals)) >= 1) {
      return withSign(`${fixed(abs / size, decimals)}${unit}`, value < 0, false);
    }
  }
  return withSign(fixed(abs, smallDecimals), isNegativeAfterRounding(value, smallDecimals), false);
}

const CURRENCY_SYMBOLS: Record<string, string> = { USD: "$", EUR: "€", GBP: "£", JPY: "¥", CAD: "C$" };

function currencyPrefix(currency: string): string {
  return CURRENCY_SYMBOLS[currency.toUpperCase()] ?? `${currency.toUpperCase()} `;
}

/** Money with units: 1.23e9 → "$1.23B", −4.5e6 → "−$4.50M", 950 → "$950". */
export function formatMoney(value: Num, currency = "USD", decimals = 2): string {
  if (!isFiniteNumber(value)) return MISSING;
  const magnitude = formatCompact(Math.abs(value), decimals, 0);
  const negative = value < 0 && magnitude !== "0";
  return withSign(`${currencyPrefix(currency)}${magnitude}`, negative, false);
}

/** Per-share money (EPS, dividends): always 2 decimals, no unit: 1.99 → "1.99", −0.1 → "−0.10". */
export function formatEps(value: Num): string {
  if (!isFiniteNumber(value)) return MISSING;
  return withSign(fixed(Math.abs(value), 2), isNegativeAfterRounding(value, 2), false);
}

/** A plain number with fixed decimals and thousands separators. */
export function formatNumber(value: Num, decimals = 2): string {
  if (!isFiniteNumber(value)) return MISSING;
  return withSign(fixed(Math.abs(value), decimals), isNegativeAfterRounding(value, decimals), false);
}

/** An integer count with thousands separators: 15234000 → "15,234,000". */
export function formatInteger(value: Num): string {
  return formatNumber(isFiniteNumber(value) ? Math.round(value) : value, 0);
}

export interface PercentOptions {
  /** Show "+" on positive values (default true: surprises and growth read as a change). */
  sign?: boolean;
  decimals?: number;
}

/** A value already in percent units: 4.123 → "+4.1%". */
export function formatPercent(value: Num, options: PercentOptions = {}): string {
  if (!isFiniteNumber(value)) return MISSING;
  const { sign = true, decimals = 1 } = options;
  const negative = isNegativeAfterRounding(value, decimals);
  const zero = Number(Math.abs(value).toFixed(decimals)) === 0;
  return withSign(`${fixed(Math.abs(value), decimals)}%`, negative, sign && !zero);
}

/** A fraction shown as a percent: 0.4123 → "41.2%" (margins, yields). No sign by default. */
export function formatFractionAsPercent(value: Num, options: PercentOptions = {}): string {
  if (!isFiniteNumber(value)) return MISSING;
  return formatPercent(value * 100, { sign: false, ...options });
}

/** A multiple: 23.456 → "23.46×". */
export function formatMultiple(value: Num, decimals = 2): string {
  if (!isFiniteNumber(value)) return MISSING;
  return `${formatNumber(value, decimals)}×`;
}

/** Picks a formatter by the kind of figure, so tables and charts stay consistent. */
export type FigureKind =
  "money" | "eps" | "percent" | "fraction" | "multiple" | "number" | "days" | "integer";

export function formatFigure(value: Num, kind: FigureKind, currency = "USD"): string {
  switch (kind) {
    case "money":
      return formatMoney(value, currency);
    case "eps":
      return formatEps(value);
    case "percent":
      return formatPercent(value);
    case "fraction":
      return formatFractionAsPercent(value);
    case "multiple":
      return formatMultiple(value);
    case "days":
      return isFiniteNumber(value) ? `${formatNumber(value, 1)} d` : MISSING;
    case "integer":
      return formatInteger(value);
    case "number":
      return formatNumber(value);
  }
}

/** −1, 0 or 1 for beat / in line / miss colouring; null when there is nothing to compare. */
export function signOf(value: Num): -1 | 0 | 1 | null {
  if (!isFiniteNumber(value)) return null;
  if (value > 0) return 1;
  if (value < 0) return -1;
  return 0;
}

// ───────────────────────────── dates and time zones ─────────────────────────────

/** The exchanges' clock, New York; conversions to and from it are common/time/eastern.ts (shared with the embedded service). */
export const EXCHANGE_TIME_ZONE = EASTERN_TIME_ZONE;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_RE = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;

export type MarketSession = "bmo" | "dmh" | "amc";

/** Before the open (09:30 ET), during market hours, or after the close (16:00 ET). Null without a time. */
export function marketSession(time: string | null | undefined): MarketSession | null {
  const t = time ? TIME_RE.exec(time) : null;
  if (!t) return null;
  const minutes = Number(t[1]) * 60 + Number(t[2]);
  if (minutes < 9 * 60 + 30) return "bmo";
  if (minutes >= 16 * 60) return "amc";
  return "dmh";
}

export const SESSION_LABEL: Record<MarketSession, string> = { bmo: "BMO", dmh: "During market", amc: "AMC" };
export const SESSION_TITLE: Record<MarketSession, string> = {
  bmo: "Before market open",
  dmh: "During market hours",
  amc: "After market close",
};

/** "2025-11-24" → "Mon, Nov 24, 2025" (or without the year). The date is a calendar date: no zone applies. */
export function formatDate(
  value: string | null | undefined,
  options: { weekday?: boolean; year?: boolean } = {},
): string {
  const d = value ? DATE_RE.exec(value) : null;
  if (!d) return value && value.length > 0 ? value : MISSING;
  const { weekday = false, year = true } = options;
  const utc = new Date(Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3])));
  return cached(
    dateFormats,
    `date|${weekday}|${year}`,
    () =>
      new Intl.DateTimeFormat("en-US", {
        timeZone: "UTC",
        weekday: weekday ? "short" : undefined,
        month: "short",
        day: "numeric",
        year: year ? "numeric" : undefined,
      }),
  ).format(utc);
}

/** "16:05" with the zone's short name: "4:05 PM EST". */
export function formatTimeInZone(instant: Date, timeZone?: string): string {
  return cached(
    dateFormats,
    `time|${timeZone ?? ""}`,
    () =>
      new Intl.DateTimeFormat("en-US", {
        timeZone,
        hour: "numeric",
        minute: "2-digit",
        timeZoneName: "short",
      }),
  ).format(instant);
}

/** A full timestamp that says its zone: "Nov 24, 2025, 4:05 PM EST". */
export function formatDateTime(
  instant: Date | string | number | null | undefined,
  timeZone?: string,
): string {
  if (instant === null || instant === undefined || instant === "") return MISSING;
  const date = instant instanceof Date ? instant : new Date(instant);
  if (Number.isNaN(date.getTime())) return MISSING;
  return cached(
    dateFormats,
    `datetime|${timeZone ?? ""}`,
    () =>
      new Intl.DateTimeFormat("en-US", {
        timeZone,
        year: "numeric",
        month: "short",
        day: "numeric",
        hour: "numeric",
        minute: "2-digit",
        timeZoneName: "short",
      }),
  ).format(date);
}

/**
 * When data was fetched, as short as still unambiguous: "2:02 PM UTC" on the same day (in the zone), the full
 * "Jan 5, 2026, 2:02 PM UTC" otherwise. For notes like "showing data from …".
 */
export function formatSince(
  instant: Date | string | null | undefined,
  timeZone?: string,
  now: Date = new Date(),
): string {
  if (instant === null || instant === undefined || instant === "") return MISSING;
  const date = instant instanceof Date ? instant : new Date(instant);
  if (Number.isNaN(date.getTime())) return MISSING;
  const sameDay =
    isoDateInZone(date, timeZone ?? localTimeZone()) === isoDateInZone(now, timeZone ?? localTimeZone());
  return sameDay ? formatTimeInZone(date, timeZone) : formatDateTime(date, timeZone);
}

/** "3 min ago", "in 2 h", "just now"; pair it with formatDateTime in a title for the absolute time. */
export function formatRelative(instant: Date | number, now: Date | number = Date.now()): string {
  const ms =
    (typeof instant === "number" ? instant : instant.getTime()) -
    (typeof now === "number" ? now : now.getTime());
  const abs = Math.abs(ms);
  if (abs < 45_000) return "just now";
  const steps: [number, string][] = [
    [86_400_000, "d"],
    [3_600_000, "h"],
    [60_000, "min"],
  ];
  for (const [size, unit] of steps) {
    if (abs >= size) {
      const n = Math.round(abs / size);
      return ms < 0 ? `${n} ${unit} ago` : `in ${n} ${unit}`;
    }
  }
  const n = Math.max(1, Math.round(abs / 60_000));
  return ms < 0 ? `${n} min ago` : `in ${n} min`;
}

/** The browser's IANA zone (e.g. "Europe/Berlin"); "UTC" when the runtime does not say. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** YYYY-MM-DD of an instant as seen in a zone (the reader's; the exchange's date is `easternDate`). */
export function isoDateInZone(instant: Date, timeZone: string): string {
  const parts = cached(
    dateFormats,
    `iso|${timeZone}`,
    () => new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }),
  ).formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}

/** Adds days to a YYYY-MM-DD calendar date (no zones involved). */
export function addDaysIso(date: string, days: number): string {
  const d = DATE_RE.exec(date);
  if (!d) return date;
  const utc = new Date(Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]) + days));
  return utc.toISOString().slice(0, 10);
}

/** Day of week of a YYYY-MM-DD date, 0 = Sunday. */
export function weekdayOfIso(date: string): number {
  const d = DATE_RE.exec(date);
  if (!d) return 0;
  return new Date(Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]))).getUTCDay();
}

export type DatePreset = "today" | "this-week" | "next-week" | "yesterday" | "last-week" | "last-30-days";

/**
 * A preset's inclusive range in exchange dates. Weeks run Monday to Sunday, the way an earnings-season
 * calendar is read; "today" is the exchange's today, not the browser's, because reports follow New York time.
 * The past: yesterday, last week (the Monday-to-Sunday week before this one), the last 30 days up to today.
 */
export function presetRange(preset: DatePreset, now: Date = new Date()): { from: string; to: string } {
  const today = easternDate(now);
  if (preset === "today") return { from: today, to: today };
  if (preset === "yesterday") {
    const yesterday = addDaysIso(today, -1);
    return { from: yesterday, to: yesterday };
  }
  if (preset === "last-30-days") return { from: addDaysIso(today, -29), to: today };
  const sinceMonday = (weekdayOfIso(today) + 6) % 7;
  const shift = preset === "next-week" ? 7 : preset === "last-week" ? -7 : 0;
  const monday = addDaysIso(today, -sinceMonday + shift);
  return { from: monday, to: addDaysIso(monday, 6) };
}

/** "1 sentence", "2 sentences", "1,204 calls": a count with its noun in the right number. */
export function formatCount(count: number, singular: string, plural = `${singular}s`): string {
  return `${formatInteger(count)} ${count === 1 ? singular : plural}`;
}

const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** A month the service gives as a number ("12", "3", "03") by its name ("December"); anything else as it came. */
export function monthName(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === "") return MISSING;
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= 12 ? MONTH_NAMES[n - 1]! : String(value);
}
