import "server-only";
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { getLogger } from "../log";
import type { SharedCacheEntry, SharedResponseStore } from "../upstream/cache";
import { DEFAULT_CACHE_LIMITS } from "../config";
import { KEY_PREFIX } from "./redis";

/**
 * The REST response cache shared by every instance (issue 7), behind `ResponseCache`:
 *
 * - entries live under `cache:<key>` (JSON `{value, fetchedAtMs, token}`, expiring with the cache policy), so a
 *   response fetched by one instance is served by all;
 * - single-flight across instances: the first instance takes `lock:<key>` (`SET NX PX`) and fetches; the others
 *   wait for an entry carrying the lock holder's token (polling every 25 ms: simpler than pub/sub and bounded by
 *   the lock's expiry) and fall back to fetching themselves when the holder fails or vanishes;
 * - bounded by bytes (issue 13), like the in-process copies: an answer whose JSON is over `maxEntryBytes` is not
 *   stored (each instance then fetches it for itself), and the stored answers together stay within `maxBytes`: the
 *   oldest written go first (`BOUNDED_SET` below);
 * - Redis trouble never fails a request: the store degrades to a direct upstream call.
 */

const DATA = `${KEY_PREFIX}cache:`;
const LOCK = `${KEY_PREFIX}lock:`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/** Index of the stored answers: write order, expiry, size per key, and the total. */
const INDEX = {
  written: `${KEY_PREFIX}cache-index:written`,
  expiry: `${KEY_PREFIX}cache-index:expiry`,
  sizes: `${KEY_PREFIX}cache-index:sizes`,
  bytes: `${KEY_PREFIX}cache-index:bytes`,
};

/**
 * Stores an answer and keeps the total within budget, atomically: forgets entries that expired by themselves (their
 * bytes are gone), replaces an older copy of the key, then deletes the oldest written until the total fits. Sizes are
 * the stored JSON's bytes. Redis's own clock (TIME) dates entries, so instances with skewed clocks agree. The victims'
 * keys are not declared in KEYS (they come from the index): fine on a single Redis, which is what this store
 * supports (a cluster would need every key in one hash slot).
 *
 * KEYS: data, written, expiry, sizes, bytes. ARGV: JSON, ttl ms, budget bytes.
 */
const BOUNDED_SET = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function forget(k)
  local size = tonumber(redis.call('HGET', KEYS[4], k) or '0')
  redis.call('HDEL', KEYS[4], k)
  redis.call('ZREM', KEYS[2], k)
  redis.call('ZREM', KEYS[3], k)
  return redis.call('DECRBY', KEYS[5], size)
end
for _, k in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now, 'LIMIT', 0, 100)) do forget(k) end
forget(KEYS[1])
if redis.call('ZCARD', KEYS[2]) == 0 then redis.call('SET', KEYS[5], 0) end
local size = string.len(ARGV[1])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], now, KEYS[1])
redis.call('ZADD', KEYS[3], now + tonumber(ARGV[2]), KEYS[1])
redis.call('HSET', KEYS[4], KEYS[1], size)
local total = redis.call('INCRBY', KEYS[5], size)
local budget = tonumber(ARGV[3])
while total > budget do
  local victim = redis.call('ZRANGE', KEYS[2], 0, 0)[1]
  if not victim or victim == KEYS[1] then break end
  redis.call('DEL', victim)
  total = forget(victim)
end
return total`;

interface StoredEntry extends SharedCacheEntry {
  token: string;
}

function parse(raw: string | null): StoredEntry | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<StoredEntry>;
    return typeof v.fetchedAtMs === "number" && typeof v.token === "string" && "value" in v
      ? (v as StoredEntry)
      : null;
  } catch {
    return null;
  }
}

export interface RedisResponseStoreOptions {
  lockMs?: number;
  pollMs?: number;
  /** Budget of every stored answer together, in bytes of JSON (default 256 MB). */
  maxBytes?: number;
  /** An answer whose JSON is larger than this is not stored (default 2 MB). */
  maxEntryBytes?: number;
}

export class RedisResponseStore implements SharedResponseStore {
  private readonly maxBytes: number;
  private readonly maxEntryBytes: number;

  constructor(
    private readonly redis: Redis,
    private readonly options: RedisResponseStoreOptions = {},
  ) {
    this.maxBytes = options.maxBytes ?? DEFAULT_CACHE_LIMITS.maxBytes;
    this.maxEntryBytes = Math.min(options.maxEntryBytes ?? DEFAULT_CACHE_LIMITS.maxEntryBytes, this.maxBytes);
  }

  async read(key: string): Promise<SharedCacheEntry | null> {
    try {
      return parse(await this.redis.get(DATA + key));
    } catch {
      return null;
    }
  }

  async fetchOnce(key: string, ttlMs: number, fetcher: () => Promise<unknown>): Promise<SharedCacheEntry> {
    const lockMs = this.options.lockMs ?? 15_000;
    const token = randomUUID();
    const startedAt = Date.now();
    let won: boolean;
    let holder: string | null = null;
    try {
      won = (await this.redis.set(LOCK + key, token, "PX", lockMs, "NX")) === "OK";
      if (!won) holder = await this.redis.get(LOCK + key);
    } catch (error) {
      this.warn(error);
      return { value: await fetcher(), fetchedAtMs: Date.now() };
    }

    if (won) {
      try {
        const entry: StoredEntry = { value: await fetcher(), fetchedAtMs: Date.now(), token };
        await this.store(key, entry, ttlMs);
        return entry;
      } finally {
        await this.redis.eval(RELEASE, 1, LOCK + key, token).catch(this.warn);
      }
    }

    // Another instance is fetching: wait for its result.
    const deadline = Date.now() + lockMs;
    try {
      for (;;) {
        const [data, lock] = await this.redis.mget(DATA + key, LOCK + key);
        const entry = parse(data ?? null);
        // Without a holder (it finished between our SET and GET), only an entry written just now will do.
        if (entry && (holder === null ? entry.fetchedAtMs >= startedAt - 1_000 : entry.token === holder))
          return entry;
        if (lock !== holder || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, this.options.pollMs ?? 25));
      }
    } catch (error) {
      this.warn(error);
    }
    // The holder failed or vanished without a result: fetch ourselves (its error, if any, was its callers').
    return { value: await fetcher(), fetchedAtMs: Date.now() };
  }

  /** Writes the entry within the byte budget; an entry over the limit is left out (waiters then fetch themselves). */
  private async store(key: string, entry: StoredEntry, ttlMs: number): Promise<void> {
    const json = JSON.stringify(entry);
    if (Buffer.byteLength(json) > this.maxEntryBytes) return;
    await this.redis
      .eval(
        BOUNDED_SET,
        5,
        DATA + key,
        INDEX.written,
        INDEX.expiry,
        INDEX.sizes,
        INDEX.bytes,
        json,
        String(Math.max(1, Math.round(ttlMs))),
        String(this.maxBytes),
      )
      .catch(this.warn);
  }

  private warn = (error: unknown): void => {
    getLogger().warn(
      { err: error instanceof Error ? error.message.slice(0, 200) : String(error) },
      "shared cache: redis unavailable; fetching directly",
    );
  };
}
