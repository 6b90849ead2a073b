import {
  createParser,
  parseAsArrayOf,
  parseAsInteger,
  parseAsString,
  parseAsStringLiteral,
} from "nuqs/server";
import { isValidIsoDate } from "@/lib/schemas/iso-date";
import { EARNINGS_SORTS, MA_SORTS } from "@/lib/schemas/calendar-sorts";
import { presetRange, type DatePreset } from "@/lib/format";

/**
 * Every calendar filter lives in the URL (nuqs), so a copied link reproduces the view. A preset ("this-week") is
 * kept as the preset, not as dates: a link shared on Monday should still mean "this week" on Thursday. Custom
 * ranges keep their dates. Invalid values in a hand-edited URL fall back to defaults rather than erroring.
 */

export const RANGE_PRESETS = [
  "today",
  "this-week",
  "next-week",
  "yesterday",
  "last-week",
  "last-30-days",
  "custom",
  "all",
] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];
export const PAGE_SIZES = [100, 250, 500, 1000] as const;

const parseAsIsoDay = createParser({
  parse: (value: string) => (isValidIsoDate(value) ? value : null),
  serialize: (value: string) => value,
});

const parseAsTicker = parseAsString;

const common = {
  range: parseAsStringLiteral(RANGE_PRESETS).withDefault("this-week"),
  from: parseAsIsoDay,
  to: parseAsIsoDay,
  importance: parseAsInteger.withDefault(0),
  tickers: parseAsArrayOf(parseAsTicker).withDefault([]),
  page: parseAsInteger.withDefault(0),
  pageSize: parseAsInteger.withDefault(250),
  /** A watchlist's id: only its companies' rows. Kept as typed (checked in watchlist-filter.ts), so a bad or
   * deleted id can be reported instead of silently showing every company. */
  watchlist: parseAsString,
};

export const earningsParams = {
  ...common,
  sort: parseAsStringLiteral(EARNINGS_SORTS).withDefault("date:asc"),
};

export const maParams = {
  ...common,
  // Deals of the last 30 days, newest first: what a reader opening the M&A calendar wants to see.
  range: parseAsStringLiteral(RANGE_PRESETS).withDefault("last-30-days"),
  sort: parseAsStringLiteral(MA_SORTS).withDefault("announced"),
};

export const urlOptions = { history: "replace", clearOnDefault: true } as const;

export interface RangeState {
  range: RangePreset;
  from: string | null;
  to: string | null;
}

/** The inclusive date range a range state stands for; `all` and an empty custom range select every date. */
export function resolveRange(state: RangeState, now = new Date()): { from?: string; to?: string } {
  if (state.range === "all") return {};
  if (state.range === "custom") {
    const from = state.from ?? undefined;
    const to = state.to ?? undefined;
    // A reversed range is almost always two dates typed in the wrong order.
    if (from && to && from > to) return { from: to, to: from };
    return { from, to };
  }
  return presetRange(state.range as DatePreset, now);
}

export function clampImportance(value: number): number | undefined {
  if (!Number.isInteger(value) || value <= 0) return undefined;
  return Math.min(5, value);
}

export function clampPageSize(value: number): number {
  return (PAGE_SIZES as readonly number[]).includes(value) ? value : 250;
}

/** Tickers from the URL: upper case, valid symbols, unique, at most 50 (the upstream's limit). */
export function cleanTickers(values: readonly string[]): string[] {
  const out = new Set<string>();
  for (const v of values) {
    const t = v.trim().toUpperCase();
    if (/^[A-Z0-9][A-Z0-9.\-]{0,14}$/.test(t)) out.add(t);
  }
  return [...out].slice(0, 50);
}

/**
 * The API filters a calendar's URL state stands for (dates resolved, values clamped and cleaned), and the date
 * range for the page's own wording.
 */
export function filtersFromParams<S extends string>(
  params: RangeState & {
    tickers: string[];
    importance: number;
    sort: S;
    page: number;
    pageSize: number;
    watchlist?: string | null;
  },
  now = new Date(),
) {
  const range = resolveRange(params, now);
  const watchlist = params.watchlist?.trim() || null;
  return {
    range,
    /** The watchlist the rows are limited to; it replaces the ticker filter (which is then ignored). */
    watchlist,
    filters: {
      from: range.from,
      to: range.to,
      tickers: watchlist ? [] : cleanTickers(params.tickers),
      importance: clampImportance(params.importance),
      sort: params.sort,
      page: Math.max(0, params.page),
      pageSize: clampPageSize(params.pageSize),
    },
  };
}
