import "server-only";
import type { AssetClassification } from "@/lib/schemas/fundamentals";
import { PEERS_LIMIT, type Peers, type Peer } from "@/lib/schemas/peers";
import type { Cached } from "../upstream/cache";
import type { Upstream } from "../upstream/client";
import { getFundamentals } from "../upstream/fundamentals";
import { loadDirectory } from "../upstream/symbols";
import { notFound } from "../errors";

/** The fundamentals endpoint takes up to 200 symbols a request. */
const CHUNK = 200;
/** At most this many chunks in flight: the directory is a few hundred tickers, a real one a few thousand. */
const PARALLEL = 2;
/** Fewer peers than this at one level widens to the next (industry → group → sector). */
const ENOUGH = 3;

/**
 * A company's suggested peers: the companies the service classifies in the same industry (Morningstar's
 * `msIndustryCode`), widening to the industry group and then the sector when the industry has fewer than three
 * others. The upstream has no screener, so the classification of every company in the symbol directory is read in
 * requests of 200 symbols through the response cache (fundamentals stay fresh ten minutes and may be served for a
 * day while the upstream is down): a company page's first peers lookup costs a few requests, the next ones none.
 */
export async function findPeers(
  upstream: Upstream,
  symbol: string,
  options: { signal?: AbortSignal } = {},
): Promise<Cached<Peers>> {
  const upper = symbol.toUpperCase();
  const directory = await loadDirectory(upstream, options);
  const own = await getFundamentals(upstream, "asset-classification", { symbols: [upper] }, options);
  const mine = own.value[0]?.assetClassification;
  if (!mine) throw notFound(`No classification for ${upper}, so no peers.`);

  const tickers = directory.value.map((d) => d.ticker.toUpperCase()).filter((t) => t !== upper);
  const chunks: string[][] = [];
  for (let i = 0; i < tickers.length; i += CHUNK) chunks.push(tickers.slice(i, i + CHUNK));
  const classified = new Map<string, AssetClassification>();
  let stale = own.stale;
  let fetchedAt = own.fetchedAt;
  for (let i = 0; i < chunks.length; i += PARALLEL) {
    const answers = await Promise.all(
      chunks.slice(i, i + PARALLEL).map((chunk) =>
        getFundamentals(upstream, "asset-classification", { symbols: chunk }, options).catch((error) => {
          if (options.signal?.aborted) throw error;
          // A chunk none of whose companies has a classification (404) holds no peers; others still count.
          stale = true;
          return null;
        }),
      ),
    );
    for (const answer of answers) {
      if (!answer) continue;
      if (answer.stale) stale = true;
      if (answer.fetchedAt < fetchedAt) fetchedAt = answer.fetchedAt;
      for (const item of answer.value)
        if (item.assetClassification) classified.set(item.symbol.toUpperCase(), item.assetClassification);
    }
  }

  const names = new Map(directory.value.map((d) => [d.ticker.toUpperCase(), d]));
  const levels = [
    { basis: "industry", code: "msIndustryCode", name: "msIndustryName" },
    { basis: "group", code: "msGroupCode", name: "msGroupName" },
    { basis: "sector", code: "msSectorCode", name: "msSectorName" },
  ] as const;
  for (const level of levels) {
    const code = mine[level.code];
    if (!code) continue;
    const same = [...classified]
      .filter(([, c]) => c[level.code] === code)
      .map(([ticker]): Peer => {
        const entry = names.get(ticker);
        return { ticker, name: entry?.name ?? ticker, exchange: entry?.exchange ?? null };
      })
      .sort((a, b) => a.ticker.localeCompare(b.ticker));
    if (same.length >= ENOUGH || level.basis === "sector")
      return {
        value: {
          symbol: upper,
          basis: level.basis,
          label: mine[level.name] ?? code,
          peers: same.slice(0, PEERS_LIMIT),
        },
        fetchedAt,
        stale,
      };
  }
  throw notFound(`No classification for ${upper}, so no peers.`);
}
