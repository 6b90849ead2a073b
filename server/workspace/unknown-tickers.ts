import "server-only";
import type { Upstream } from "../upstream/client";
import { knownTickers } from "../upstream/symbols";

/** How long a watchlist change waits to say which tickers the service does not know; past it, it says nothing. */
const CHECK_BUDGET_MS = 1_500;

/**
 * The tickers the market-data service's directory does not know (a typo, a delisted company), for the watchlist
 * answer to say so: the list keeps them (the directory holds only companies with earnings records, and a reader may
 * follow a company before its first report), the reader sees a message. When the directory cannot be read in time,
 * nothing is reported rather than every ticker.
 */
export async function unknownTickers(
  upstream: Upstream,
  tickers: readonly string[],
  signal?: AbortSignal,
): Promise<string[]> {
  if (tickers.length === 0) return [];
  try {
    const known = await knownTickers(upstream, {
      signal: signal
        ? AbortSignal.any([signal, AbortSignal.timeout(CHECK_BUDGET_MS)])
        : AbortSignal.timeout(CHECK_BUDGET_MS),
    });
    if (known.size === 0) return [];
    return tickers.filter((t) => !known.has(t.toUpperCase()));
  } catch {
    return [];
  }
}
