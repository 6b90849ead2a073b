import { createParser, parseAsArrayOf, parseAsInteger, parseAsString, parseAsStringLiteral } from "nuqs";
import { isValidIsoDate } from "@/lib/schemas/iso-date";

/**
 * The /calls filters, all in the URL (nuqs) so a copied link reproduces the view. Hand-edited nonsense falls back
 * to defaults instead of erroring.
 */
export const CALL_STATUSES = ["all", "live", "completed"] as const;
export const CALLS_PAGE_SIZE = 20;

const parseAsIsoDay = createParser({
  parse: (value: string) => (isValidIsoDate(value) ? value : null),
  serialize: (value: string) => value,
});

export const callsParams = {
  tickers: parseAsArrayOf(parseAsString).withDefault([]),
  from: parseAsIsoDay,
  to: parseAsIsoDay,
  status: parseAsStringLiteral(CALL_STATUSES).withDefault("all"),
  page: parseAsInteger.withDefault(0),
};

export const callsUrlOptions = { history: "replace", clearOnDefault: true } as const;

/** Tickers typed as "aapl, msft" → ["AAPL", "MSFT"]: upper case, valid symbols, unique, at most 50. */
export function parseTickerInput(values: readonly string[] | string): string[] {
  const list = typeof values === "string" ? values.split(/[\s,]+/) : values;
  const out = new Set<string>();
  for (const v of list) {
    const t = v.trim().toUpperCase();
    if (/^[A-Z0-9][A-Z0-9.-]{0,14}$/.test(t)) out.add(t);
    if (out.size >= 50) break;
  }
  return [...out];
}

/**
 * Dates are calendar days; the API filters on the call's start instant, so the range is sent as the whole days
 * in UTC (from 00:00:00Z to 23:59:59.999Z). A reversed range is read as the two dates typed in the wrong order.
 */
export function dayRange(from: string | null, to: string | null): { from?: string; to?: string } {
  const [a, b] = from && to && from > to ? [to, from] : [from, to];
  return {
    from: a ? `${a}T00:00:00.000Z` : undefined,
    to: b ? `${b}T23:59:59.999Z` : undefined,
  };
}
