import { createParser, parseAsInteger, parseAsString, parseAsStringLiteral } from "nuqs/server";
import type { SearchFilters } from "@/lib/queries/search";
import { isValidIsoDate } from "@/lib/schemas/iso-date";
import { callSections, speakerRoles } from "@/lib/schemas/search-values";

/**
 * Every /search filter lives in the URL (nuqs), so a copied link reproduces the search. Hand-edited nonsense falls
 * back to "no filter" instead of an error page; the query text is passed as typed (the API explains bad input).
 */
const parseAsIsoDay = createParser({
  parse: (value: string) => (isValidIsoDate(value) ? value : null),
  serialize: (value: string) => value,
});

const parseAsQuarter = createParser({
  parse: (value: string) => (/^\d{4}-Q[1-4]$/.test(value) ? value : null),
  serialize: (value: string) => value,
});

/** Tickers as typed ("aapl, msft"): upper case, plausible symbols, unique, at most 20 (the API's limit). */
export function parseTickers(raw: string): string[] {
  const out = new Set<string>();
  for (const v of raw.split(/[\s,]+/)) {
    const t = v.trim().toUpperCase();
    if (/^[A-Z][A-Z0-9.-]{0,9}$/.test(t)) out.add(t);
    if (out.size >= 20) break;
  }
  return [...out];
}

const parseAsTickers = createParser({
  parse: (value: string) => {
    const list = parseTickers(value);
    return list.length > 0 ? list : null;
  },
  serialize: (value: string[]) => value.join(","),
  eq: (a: string[], b: string[]) => a.join(",") === b.join(","),
});

export const searchParams = {
  q: parseAsString.withDefault(""),
  tickers: parseAsTickers.withDefault([]),
  from: parseAsIsoDay,
  to: parseAsIsoDay,
  speaker: parseAsStringLiteral(speakerRoles),
  section: parseAsStringLiteral(callSections),
  quarter: parseAsQuarter,
  page: parseAsInteger.withDefault(0),
};

export const searchUrlOptions = { history: "push", clearOnDefault: true } as const;

export function searchFilters(params: {
  q: string;
  tickers: string[];
  from: string | null;
  to: string | null;
  speaker: SearchFilters["speaker"];
  section: SearchFilters["section"];
  quarter: string | null;
  page: number;
}): SearchFilters {
  return { ...params, q: params.q.trim(), page: Math.max(0, params.page) };
}

/** "2026-Q3" → "Q3 2026", as the calls list writes periods. */
export function quarterLabel(quarter: string): string {
  const m = /^(\d{4})-(Q[1-4])$/.exec(quarter);
  return m ? `${m[2]} ${m[1]}` : quarter;
}
