import "server-only";
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { getLogger } from "../log";
import type { SharedCacheEntry, SharedResponseStore } from "../upstream/cache";
import { KEY_PREFIX } from "./redis";

/**
 * The REST response cache shared by every instance (issue 7), behind `ResponseCache`:
 *
 * - entries live under `cache:<key>` (JSON `{value, fetchedAtMs, token}`, expiring with the cache policy), so a
 *   response fetched by one instance is served by all;
 * - single-flight across instances: the first instance takes `lock:<key>` (`SET NX PX`) and fetches; the others
 *   wait for an entry carrying the lock holder's token (polling every 25 ms: simpler than pub/sub and bounded by
 *   the lock's expiry) and fall back to fetching themselves when the holder fails or vanishes;
 * - Redis trouble never fails a request: the store degrades to a direct upstream call.
 */

const DATA = `${KEY_PREFIX}cache:`;
const LOCK = `${KEY_PREFIX}lock:`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

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

export class RedisResponseStore implements SharedResponseStore {
  constructor(
    private readonly redis: Redis,
    private readonly options: { lockMs?: number; pollMs?: number } = {},
  ) {}

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
        await this.redis.set(DATA + key, JSON.stringify(entry), "PX", Math.max(1, ttlMs)).catch(this.warn);
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

  private warn = (error: unknown): void => {
    getLogger().warn(
      { err: error instanceof Error ? error.message.slice(0, 200) : String(error) },
      "shared cache: redis unavailable; fetching directly",
    );
  };
}
