import "server-only";
import {
  BurstyRateLimiter,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from "rate-limiter-flexible";
import type { Redis } from "ioredis";

/**
 * With REDIS_URL (several instances, issue 7) limits are counted in Redis so they hold across instances, with an
 * in-memory insurance limiter taking over while Redis is unreachable; otherwise in memory. The runtime hands the
 * Redis connection in (`store`), or null.
 */
type LimiterOptions = ConstructorParameters<typeof RateLimiterMemory>[0];

function createLimiter(options: LimiterOptions, store: Redis | null): RateLimiterMemory | RateLimiterRedis {
  if (!store) return new RateLimiterMemory(options);
  return new RateLimiterRedis({
    ...options,
    keyPrefix: `callroom:rl:${options.keyPrefix ?? "api"}`,
    storeClient: store,
    insuranceLimiter: new RateLimiterMemory(options),
  });
}

/**
 * The limits:
 *
 * - `/api` requests: `rate` per second per client, plus a burst bucket of 5 × rate per 10 s used only when the
 *   per-second bucket is empty: a dashboard opening fires a dozen queries at once, a scraper cannot keep that up.
 * - failed logins: 5 per user name per 15 min and 20 per address per 15 min (counted on failure only, so an
 *   attacker cannot lock a user out by guessing *correctly*; a success clears the user's count).
 * - concurrent SSE connections per client (a count, released when the stream closes).
 */

export interface LimitDecision {
  allowed: boolean;
  retryAfterSeconds: number;
}

function toDecision(result: unknown): LimitDecision {
  if (result instanceof RateLimiterRes) {
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(result.msBeforeNext / 1000)) };
  }
  // rate-limiter-flexible rejects with an Error only on store failure; memory has none, but fail open on it.
  return { allowed: true, retryAfterSeconds: 0 };
}

export class ApiRateLimiter {
  private readonly limiter: BurstyRateLimiter | null;
  constructor(
    readonly rate: number,
    store: Redis | null = null,
  ) {
    this.limiter =
      rate > 0
        ? new BurstyRateLimiter(
            createLimiter({ points: Math.max(1, Math.floor(rate)), duration: 1 }, store),
            createLimiter(
              { keyPrefix: "burst", points: Math.max(1, Math.floor(rate * 5)), duration: 10 },
              store,
            ),
          )
        : null;
  }

  async consume(client: string): Promise<LimitDecision> {
    if (!this.limiter) return { allowed: true, retryAfterSeconds: 0 };
    try {
      await this.limiter.consume(client);
      return { allowed: true, retryAfterSeconds: 0 };
    } catch (result) {
      return toDecision(result);
    }
  }
}

export class LoginLimiter {
  private readonly byUser;
  private readonly byAddress;

  constructor(store: Redis | null = null) {
    this.byUser = createLimiter({ keyPrefix: "login-user", points: 5, duration: 15 * 60 }, store);
    this.byAddress = createLimiter({ keyPrefix: "login-ip", points: 20, duration: 15 * 60 }, store);
  }

  /**
   * Takes one attempt from both budgets before the password is checked, atomically per key, so concurrent wrong
   * passwords cannot all reach verification. A refused reservation gives back what it took from the other budget.
   */
  async reserve(username: string, address: string): Promise<LimitDecision> {
    const key = userKey(username);
    const [user, ip] = await Promise.allSettled([this.byUser.consume(key), this.byAddress.consume(address)]);
    if (user.status === "fulfilled" && ip.status === "fulfilled")
      return { allowed: true, retryAfterSeconds: 0 };
    if (user.status === "fulfilled") await this.byUser.reward(key).catch(() => undefined);
    if (ip.status === "fulfilled") await this.byAddress.reward(address).catch(() => undefined);
    const waits = [user, ip]
      .filter((r): r is PromiseRejectedResult => r.status === "rejected")
      .map((r) => (r.reason instanceof RateLimiterRes ? r.reason.msBeforeNext : 1000));
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(Math.max(...waits) / 1000)) };
  }

  /** A correct password: the attempt it reserved is given back, and the user's failures are forgotten. */
  async onSuccess(username: string, address: string): Promise<void> {
    await Promise.allSettled([this.byUser.delete(userKey(username)), this.byAddress.reward(address)]);
  }
}

const userKey = (name: string) => name.toLowerCase().slice(0, 64);

export class ConnectionSlots {
  private readonly open = new Map<string, number>();
  constructor(private readonly max: number) {}

  /** A release function, or null when the client already holds `max` connections. */
  acquire(client: string): (() => void) | null {
    const n = this.open.get(client) ?? 0;
    if (n >= this.max) return null;
    this.open.set(client, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(client) ?? 1) - 1;
      if (left <= 0) this.open.delete(client);
      else this.open.set(client, left);
    };
  }

  total(): number {
    let sum = 0;
    for (const n of this.open.values()) sum += n;
    return sum;
  }
}
