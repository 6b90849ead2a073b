import "server-only";
import { SYMBOL_SEARCH_LIMIT, type SymbolMatch } from "@/lib/schemas/symbols";
import { CACHE_POLICIES, type Cached } from "../cache";
import { fetchEarningsRows } from "../calendars";
import type { Upstream } from "../client";

/**
 * Company search. The upstream has no company directory, so we build one from the earnings calendar: every ticker
 * over the whole window (no date filter), newest record first so the latest name and exchange win. Paged at the
 * upstream's maximum page size; MAX_PAGES bounds the cost against a very large real calendar. Cached 1 h (and
 * served stale for up to a week if the upstream is down: names rarely change).
 */

const PAGE_SIZE = 1000;
const MAX_PAGES = 50;
const DIRECTORY_KEY = "directory:earnings-calendar";

export async function loadSymbolDirectory(upstream: Upstream): Promise<SymbolMatch[]> {
  const byTicker = new Map<string, SymbolMatch>();
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const rows = await fetchEarningsRows(upstream, {
      page,
      pagesize: PAGE_SIZE,
      "parameters[date_sort]": "date:desc",
    });
    for (const row of rows) {
      if (!row.ticker || byTicker.has(row.ticker)) continue;
      byTicker.set(row.ticker, { ticker: row.ticker, name: row.name, exchange: row.exchange });
    }
    if (rows.length < PAGE_SIZE) break;
  }
  return [...byTicker.values()].sort((a, b) => a.ticker.localeCompare(b.ticker));
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9&]+/)
    .filter((w) => w.length > 0);
}

/**
 * Rank: exact ticker, then ticker prefix (shorter tickers first), then names whose words start with every query
 * word (names starting with the query first), then names containing the query. Ties by ticker.
 */
export function rankSymbols(directory: readonly SymbolMatch[], query: string, limit = SYMBOL_SEARCH_LIMIT) {
  const q = query.trim();
  if (!q) return [];
  const upper = q.toUpperCase();
  const lower = q.toLowerCase();
  const queryWords = words(q);
  const scored: { entry: SymbolMatch; score: number }[] = [];
  for (const entry of directory) {
    const name = entry.name.toLowerCase();
    let score: number | null = null;
    if (entry.ticker === upper) score = 0;
    else if (entry.ticker.startsWith(upper)) score = 1;
    else if (queryWords.length > 0) {
      const nameWords = words(entry.name);
      if (queryWords.every((w) => nameWords.some((n) => n.startsWith(w))))
        score = name.startsWith(lower) ? 2 : 3;
      else if (name.includes(lower)) score = 4;
    }
    if (score !== null) scored.push({ entry, score });
  }
  scored.sort(
    (a, b) =>
      a.score - b.score ||
      a.entry.ticker.length - b.entry.ticker.length ||
      a.entry.ticker.localeCompare(b.entry.ticker),
  );
  return scored.slice(0, limit).map((s) => s.entry);
}

/** The symbol directory as cached (1 h fresh, served stale for a week while the upstream is down). */
export function loadDirectory(
  upstream: Upstream,
  options: { signal?: AbortSignal } = {},
): Promise<Cached<SymbolMatch[]>> {
  return upstream.cache.get(
    DIRECTORY_KEY,
    CACHE_POLICIES.symbols,
    () => loadSymbolDirectory(upstream),
    options,
  );
}

/** Every ticker the directory knows (cached as `searchSymbols`' directory is): what a watchlist's tickers are checked against. */
export async function knownTickers(
  upstream: Upstream,
  options: { signal?: AbortSignal } = {},
): Promise<ReadonlySet<string>> {
  const directory = await loadDirectory(upstream, options);
  let known = tickerSets.get(directory.value);
  if (!known) {
    known = new Set(directory.value.map((entry) => entry.ticker.toUpperCase()));
    tickerSets.set(directory.value, known);
  }
  return known;
}

/** The set made of one directory (the cache hands the same array out until it reloads). */
const tickerSets = new WeakMap<readonly SymbolMatch[], ReadonlySet<string>>();

export async function searchSymbols(
  upstream: Upstream,
  query: string,
  options: { signal?: AbortSignal } = {},
): Promise<Cached<SymbolMatch[]>> {
  const directory = await loadDirectory(upstream, options);
  return { ...directory, value: rankSymbols(directory.value, query) };
}
