import "server-only";
import { LRUCache } from "lru-cache";
import { AppError } from "../errors";
import { getLogger } from "../log";
import { DEFAULT_CACHE_LIMITS } from "../config";
import { estimateBytes } from "./value-size";
import { inBackground } from "./budget";

/**
 * Response cache in front of the upstream, keyed on the normalised upstream request.
 *
 * - fresh for `freshMs`: served as is;
 * - then, up to `swrMs`, stale-while-revalidate: served at once while one background refresh runs;
 * - beyond that the caller waits for a refresh; if the upstream fails (5xx of ours) and the copy is younger than
 *   `staleIfErrorMs`, the old copy is served marked `stale: true` (stale-if-error);
 * - single-flight: concurrent identical requests share one upstream call;
 * - bounded by bytes, not entries (issue 13): answers range from 2 kB to 7 MB, so a count bounds nothing. Copies are
 *   sized when stored (`value-size.ts`) and the least recently used go once `maxBytes` is reached; an answer over
 *   `maxEntryBytes` is served but not kept (a few such requests would otherwise flush everything else). Keys
 *   normalise symbol lists, so `B,a` and `A,B` are one entry, not two.
 *
 * The shared upstream call deliberately ignores the callers' abort signals (one browser leaving must not fail the
 * others); each caller can still stop waiting through its own signal. The client's own deadline bounds the call.
 */

export interface CachePolicy {
  freshMs: number;
  swrMs: number;
  staleIfErrorMs: number;
}

export const CACHE_POLICIES = {
  calendar: { freshMs: 30_000, swrMs: 5 * 60_000, staleIfErrorMs: 60 * 60_000 },
  fundamentals: { freshMs: 10 * 60_000, swrMs: 60 * 60_000, staleIfErrorMs: 24 * 60 * 60_000 },
  symbols: { freshMs: 60 * 60_000, swrMs: 24 * 60 * 60_000, staleIfErrorMs: 7 * 24 * 60 * 60_000 },
  health: { freshMs: 15_000, swrMs: 15_000, staleIfErrorMs: 0 },
} as const satisfies Record<string, CachePolicy>;

export interface Cached<T> {
  value: T;
  /** ISO 8601 UTC time the value was fetched from the upstream. */
  fetchedAt: string;
  /** True only when served because the upstream failed. */
  stale: boolean;
}

interface Entry {
  value: unknown;
  fetchedAtMs: number;
}

/** An entry as a shared store (several instances, server/scale) holds it. */
export type SharedCacheEntry = Entry;

/**
 * A cache shared by several instances (Redis, issue 7): entries fetched by any instance, and single-flight across
 * instances. Without one, this cache is the process's alone.
 */
export interface SharedResponseStore {
  read(key: string): Promise<SharedCacheEntry | null>;
  /** Runs `fetcher` unless another instance is already fetching `key`, whose result is then returned instead. */
  fetchOnce(key: string, ttlMs: number, fetcher: () => Promise<unknown>): Promise<SharedCacheEntry>;
}

export interface CacheStats {
  hits: number;
  misses: number;
  staleWhileRevalidate: number;
  staleIfError: number;
  coalesced: number;
  fetches: number;
  fetchErrors: number;
  /** Answers served but not kept: larger than `maxEntryBytes`. */
  tooLarge: number;
  size: number;
  /** Estimated heap bytes of the kept answers (at most `maxBytes`). */
  bytes: number;
}

export interface ResponseCacheOptions {
  now?: () => number;
  /** The store shared with other instances (Redis); the runtime chooses it. */
  shared?: SharedResponseStore;
  /** Budget of all kept answers together, in estimated heap bytes (default 256 MB). */
  maxBytes?: number;
  /** An answer larger than this is served but not kept (default 2 MB). */
  maxEntryBytes?: number;
}

/**
 * Upstream parameters that list symbols: a set, whatever the order, case or repeats the browser sent (the upstream
 * answers one item per known symbol, and readers look items up by symbol).
 */
const SYMBOL_LIST_PARAMS = new Set(["symbols", "symbol", "parameters[tickers]"]);

function normaliseSymbolList(list: string): string {
  const symbols = list
    .split(",")
    .map((s) => s.trim().toUpperCase())
    .filter((s) => s !== "");
  return [...new Set(symbols)].sort().join(",");
}

/** Stable key for an upstream request: path + query names sorted, empty values dropped, symbol lists normalised. */
export function cacheKey(
  path: string,
  query: Record<string, string | number | boolean | undefined | null>,
): string {
  const parts = Object.entries(query)
    .filter(([, v]) => v !== undefined && v !== null && v !== "")
    .map(([k, v]) => {
      const value = SYMBOL_LIST_PARAMS.has(k) ? normaliseSymbolList(String(v)) : String(v);
      return `${encodeURIComponent(k)}=${encodeURIComponent(value)}`;
    })
    .sort();
  return parts.length ? `${path}?${parts.join("&")}` : path;
}

function raceSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted)
    return Promise.reject(new AppError("client_closed_request", "The request was cancelled."));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AppError("client_closed_request", "The request was cancelled."));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

function keepMs(policy: CachePolicy): number {
  return Math.max(policy.swrMs, policy.staleIfErrorMs, policy.freshMs);
}

export class ResponseCache {
  private readonly lru: LRUCache<string, Entry>;
  private readonly inflight = new Map<string, Promise<Cached<unknown>>>();
  private counters = {
    hits: 0,
    misses: 0,
    staleWhileRevalidate: 0,
    staleIfError: 0,
    coalesced: 0,
    fetches: 0,
    fetchErrors: 0,
    tooLarge: 0,
  };

  private readonly shared: SharedResponseStore | null;
  private readonly maxEntryBytes: number;

  constructor(options: ResponseCacheOptions = {}) {
    const maxBytes = options.maxBytes ?? DEFAULT_CACHE_LIMITS.maxBytes;
    this.maxEntryBytes = Math.min(options.maxEntryBytes ?? DEFAULT_CACHE_LIMITS.maxEntryBytes, maxBytes);
    // The size is computed before `set` (see `keep`) and passed in, so lru-cache never sizes anything itself.
    this.lru = new LRUCache<string, Entry>({ maxSize: maxBytes, ttl: 1, ttlAutopurge: false });
    if (options.now) this.now = options.now;
    this.shared = options.shared ?? null;
  }

  /** Keeps `entry` for as long as it may be served at all, unless it is too large to keep. */
  private keep(key: string, entry: Entry, policy: CachePolicy): void {
    // The key and the entry's own fields cost a little besides the value.
    const size = estimateBytes(entry.value, this.maxEntryBytes) + 2 * key.length + 64;
    if (size > this.maxEntryBytes) {
      this.counters.tooLarge += 1;
      // An older, smaller copy would now be outdated by the one just served: drop it.
      this.lru.delete(key);
      return;
    }
    // lru-cache's own clock is only used for eviction.
    this.lru.set(key, entry, { ttl: keepMs(policy), size });
  }

  private now: () => number = () => Date.now();

  async get<T>(
    key: string,
    policy: CachePolicy,
    fetcher: () => Promise<T>,
    options: { signal?: AbortSignal } = {},
  ): Promise<Cached<T>> {
    const entry = await this.lookup(key, policy);
    const age = entry ? this.now() - entry.fetchedAtMs : Infinity;
    if (entry && age < policy.freshMs) {
      this.counters.hits += 1;
      return this.toCached<T>(entry, false);
    }
    if (entry && age < policy.swrMs) {
      this.counters.hits += 1;
      this.counters.staleWhileRevalidate += 1;
      // Nobody waits for this refresh: it takes the background lane's budget (server/upstream/budget.ts).
      inBackground(() => this.flight(key, policy, fetcher)).catch((error: unknown) => {
        getLogger().warn({ cacheKey: key, err: error }, "background refresh failed");
      });
      return this.toCached<T>(entry, false);
    }
    this.counters.misses += 1;
    try {
      return (await raceSignal(this.flight(key, policy, fetcher), options.signal)) as Cached<T>;
    } catch (error) {
      const canServeStale =
        entry !== undefined &&
        age < policy.staleIfErrorMs &&
        error instanceof AppError &&
        error.status >= 500 &&
        !options.signal?.aborted;
      if (!canServeStale) throw error;
      this.counters.staleIfError += 1;
      getLogger().warn({ cacheKey: key, code: error.code }, "upstream failed; serving stale copy");
      return this.toCached<T>(entry, true);
    }
  }

  /** The local copy, or a newer one another instance fetched (shared store) when the local one is not fresh. */
  private async lookup(key: string, policy: CachePolicy): Promise<Entry | undefined> {
    const local = this.lru.get(key);
    if (!this.shared || (local && this.now() - local.fetchedAtMs < policy.freshMs)) return local;
    const remote = await this.shared.read(key);
    if (!remote || (local && remote.fetchedAtMs <= local.fetchedAtMs)) return local;
    this.keep(key, remote, policy);
    return remote;
  }

  private flight<T>(key: string, policy: CachePolicy, fetcher: () => Promise<T>): Promise<Cached<unknown>> {
    const running = this.inflight.get(key);
    if (running) {
      this.counters.coalesced += 1;
      return running;
    }
    this.counters.fetches += 1;
    const promise = (async () => {
      try {
        const entry: Entry = this.shared
          ? await this.shared.fetchOnce(key, keepMs(policy), fetcher)
          : { value: await fetcher(), fetchedAtMs: this.now() };
        this.keep(key, entry, policy);
        return this.toCached<unknown>(entry, false);
      } catch (error) {
        this.counters.fetchErrors += 1;
        throw error;
      } finally {
        this.inflight.delete(key);
      }
    })();
    this.inflight.set(key, promise);
    return promise;
  }

  private toCached<T>(entry: Entry, stale: boolean): Cached<T> {
    return { value: entry.value as T, fetchedAt: new Date(entry.fetchedAtMs).toISOString(), stale };
  }

  stats(): CacheStats {
    return { ...this.counters, size: this.lru.size, bytes: this.lru.calculatedSize };
  }

  clear(): void {
    this.lru.clear();
    this.inflight.clear();
    for (const k of Object.keys(this.counters) as (keyof typeof this.counters)[]) this.counters[k] = 0;
  }
}
