/**
 * Request-target parsing. Clients percent-encode the brackets of `parameters[tickers]` (`parameters%5Btickers%5D`)
 * or not, and either spelling must reach handlers as the same name; decoding names as well as values gives that.
 */

export interface ParsedTarget {
  /** Percent-decoded path; null when the path is not valid percent-encoding. */
  path: string | null;
  query: URLSearchParams;
}

export function parseTarget(target: string): ParsedTarget {
  const queryStart = target.indexOf("?");
  const rawPath = queryStart === -1 ? target : target.slice(0, queryStart);
  const rawQuery = queryStart === -1 ? "" : target.slice(queryStart + 1);
  let path: string | null;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    path = null;
  }
  return { path, query: normaliseQuery(rawQuery) };
}

/** URLSearchParams decodes `%5B`/`%5D` in names too, so `parameters%5Bdate%5D` and `parameters[date]` coincide. */
export function normaliseQuery(rawQuery: string): URLSearchParams {
  return new URLSearchParams(rawQuery);
}
