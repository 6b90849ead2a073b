import "server-only";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { LRUCache } from "lru-cache";
import type { Coding } from "./content-encoding";
import { strongEtag } from "./etag";

/**
 * Finished answers of our own API (status 200, JSON, `Cache-Control: private, max-age=N` with N > 0), kept for the
 * N seconds the route itself declared them fresh, so the market router (server/http/market-door.ts) can serve them
 * again without asking the route. An answer is the bytes the route wrote plus the headers it set; the tag is computed once, and
 * each compressed variant once, on first demand (concurrent askers share the one compression).
 *
 * Bounded by bytes (body plus the variants made so far); an answer over `maxEntryBytes` is not kept.
 */

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

export interface StoredAnswer {
  body: Buffer;
  etag: string;
  /** The route's own headers that do not change per request (Content-Type, Vary, …); lower-case names. */
  headers: Record<string, string>;
  storedAtMs: number;
  /** Seconds of freshness the route declared when it answered. */
  maxAgeSeconds: number;
  /** The body and the variants made so far, as counted against the store's budget. */
  bytes: number;
  variants: Partial<Record<Exclude<Coding, "identity">, Promise<Buffer>>>;
}

export interface AnswerStoreOptions {
  maxBytes?: number;
  maxEntryBytes?: number;
  now?: () => number;
}

/**
 * How long past its max-age an answer may still stand in while Next is asked for the next one. Within it the route
 * itself serves the same copy (stale-while-revalidate: 5 minutes for calendars, an hour for fundamentals) unless its
 * refresh has failed, and the first of Next's answers to be fresh again replaces it.
 */
export const STALE_LIMIT_SECONDS = 30;

export const ANSWER_STORE_DEFAULTS = { maxBytes: 64 * 1024 * 1024, maxEntryBytes: 2 * 1024 * 1024 };

export interface AnswerStoreStats {
  hits: number;
  stale: number;
  misses: number;
  stores: number;
  compressions: number;
  size: number;
  bytes: number;
}

export class AnswerStore {
  private readonly lru: LRUCache<string, StoredAnswer>;
  /** Answers larger than this (body plus key) are served but not kept. */
  readonly maxEntryBytes: number;
  readonly now: () => number;
  private counters = { hits: 0, stale: 0, misses: 0, stores: 0, compressions: 0 };

  constructor(options: AnswerStoreOptions = {}) {
    this.lru = new LRUCache<string, StoredAnswer>({
      maxSize: options.maxBytes ?? ANSWER_STORE_DEFAULTS.maxBytes,
      // Freshness is checked by `fresh` against the answer's own max-age; the LRU only bounds memory.
    });
    this.maxEntryBytes = options.maxEntryBytes ?? ANSWER_STORE_DEFAULTS.maxEntryBytes;
    this.now = options.now ?? Date.now;
  }

  /**
   * The answer under `key`: `fresh` while within the route's max-age; past it, still returned (not fresh) for
   * `STALE_LIMIT_SECONDS`, so the door can serve it while one request asks Next for the next one; then dropped.
   */
  lookup(key: string): { answer: StoredAnswer; fresh: boolean } | undefined {
    const answer = this.lru.get(key);
    if (!answer) {
      this.counters.misses += 1;
      return undefined;
    }
    // In milliseconds: an answer stored with max-age=1 is fresh for that second, not 0 s after flooring.
    const expiresAt = answer.storedAtMs + answer.maxAgeSeconds * 1000;
    const now = this.now();
    if (now < expiresAt) {
      this.counters.hits += 1;
      return { answer, fresh: true };
    }
    if (now < expiresAt + STALE_LIMIT_SECONDS * 1000) {
      this.counters.stale += 1;
      return { answer, fresh: false };
    }
    this.lru.delete(key);
    this.counters.misses += 1;
    return undefined;
  }

  /** Whole seconds of freshness left, as the route would compute its max-age now. */
  remainingSeconds(answer: StoredAnswer): number {
    return Math.floor(answer.maxAgeSeconds - (this.now() - answer.storedAtMs) / 1000);
  }

  put(key: string, body: Buffer, headers: Record<string, string>, maxAgeSeconds: number): StoredAnswer {
    const answer: StoredAnswer = {
      body,
      etag: strongEtag(body),
      headers,
      storedAtMs: this.now(),
      maxAgeSeconds,
      bytes: body.length,
      variants: {},
    };
    if (body.length + key.length <= this.maxEntryBytes) {
      this.counters.stores += 1;
      this.lru.set(key, answer, { size: sizeOf(key, answer) });
    }
    return answer;
  }

  /** The body in `coding`, compressed at most once per stored answer. */
  encoded(key: string, answer: StoredAnswer, coding: Coding): Promise<Buffer> | Buffer {
    if (coding === "identity") return answer.body;
    let variant = answer.variants[coding];
    if (!variant) {
      this.counters.compressions += 1;
      variant =
        coding === "br"
          ? brotli(answer.body, {
              params: {
                // Quality 9 of 11: a fraction of the time of 11 for nearly its size, paid once per answer.
                [constants.BROTLI_PARAM_QUALITY]: 9,
                [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
                [constants.BROTLI_PARAM_SIZE_HINT]: answer.body.length,
              },
            })
          : gz(answer.body, { level: 9 });
      answer.variants[coding] = variant;
      void variant.then(
        (bytes) => {
          answer.bytes += bytes.length;
          // Count the variant against the budget once it exists (if the answer is still kept).
          if (this.lru.peek(key) === answer) this.lru.set(key, answer, { size: sizeOf(key, answer) });
        },
        () => {
          delete answer.variants[coding];
        },
      );
    }
    return variant;
  }

  /** Lookups by result (hit: fresh, stale: expired but within the stale limit, miss), stores, entries, bytes. */
  stats(): AnswerStoreStats {
    return { ...this.counters, size: this.lru.size, bytes: this.lru.calculatedSize };
  }
}

function sizeOf(key: string, answer: StoredAnswer): number {
  return answer.bytes + 2 * key.length + 256;
}
