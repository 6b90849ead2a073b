import "server-only";
import { Redis } from "ioredis";
import { getLogger } from "../log";

/**
 * Redis connections for scale-out (issue 7). Every key lives under one prefix so several deployments can share a
 * Redis. The runtime reads `REDIS_URL` (its presence selects the Redis-backed
 * live bus and cache); an invalid value must fail loudly at start.
 */

export const KEY_PREFIX = "callroom:";

export function redisUrl(source: Record<string, string | undefined>): string | undefined {
  const url = source.REDIS_URL?.trim();
  if (!url) return undefined;
  if (!/^rediss?:\/\//.test(url)) throw new Error("REDIS_URL must be a redis:// or rediss:// URL");
  return url;
}

/**
 * One connection. `blocking` connections (XREAD BLOCK) retry a command across reconnects forever; command
 * connections fail a command after a few reconnect attempts so a leader notices it can no longer publish.
 */
export function createRedis(url: string, name: string, options: { blocking?: boolean } = {}): Redis {
  const client = new Redis(url, {
    connectionName: `callroom-${name}`,
    maxRetriesPerRequest: options.blocking ? null : 3,
    enableAutoPipelining: false,
    retryStrategy: (times) => Math.min(50 * 2 ** times, 2_000),
  });
  let warned = false;
  client.on("error", (error: Error) => {
    // ioredis emits one error per failed reconnect attempt; once per outage is enough.
    if (warned) return;
    warned = true;
    getLogger().warn({ err: error.message.slice(0, 200), connection: name }, "redis: connection error");
  });
  client.on("ready", () => {
    warned = false;
  });
  return client;
}
