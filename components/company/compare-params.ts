import { parseAsArrayOf, parseAsString } from "nuqs/server";

/** The comparison's set lives in the URL (`?symbols=A,B`), read the same way by the page's prefetch and the view. */
export const MIN_COMPARE = 2;
export const MAX_COMPARE = 10;

export const compareSymbolsParser = parseAsArrayOf(parseAsString)
  .withDefault([])
  .withOptions({ history: "replace", clearOnDefault: true });

/** Symbols from the URL: upper case, unique, at most ten (the comparison's limit). */
export function cleanCompareSymbols(values: readonly string[]): string[] {
  const out: string[] = [];
  for (const v of values) {
    const s = v.trim().toUpperCase();
    if (/^[A-Z0-9][A-Z0-9.\-]{0,14}$/.test(s) && !out.includes(s)) out.push(s);
  }
  return out.slice(0, MAX_COMPARE);
}
