import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";

/**
 * One budget for every background read of the market-data service (docs/storage.md, "A polite backfill"): the
 * archive's backfill, calendar feeds, watchlist calendars and the response cache's background refreshes. A fresh start
 * used to backfill at full speed into the service's rate limit (37 answers of 429 in the first seconds), spending the
 * customer's quota and meeting the user's own requests at the same limit.
 *
 * - Background requests are spaced to at most `ratePerSecond` (default 25, `CALLROOM_BACKGROUND_RATE`), below the
 *   service's limit (`limitPerSecond`, default 50: the embedded service's `EMBEDDED_RATE_LIMIT`).
 * - The user's own requests never wait here. They are counted, and background requests wait while the user's
 *   requests of the last second leave less than the background's share of the limit.
 * - A 429 (from either lane) halves the background rate and pauses it for the answer's `Retry-After`; every 10 s
 *   without one gives back a tenth of the configured rate.
 *
 * Which lane a request is in is the caller's context (`inBackground`), so the readers of each upstream resource need
 * no parameter for it.
 */

export type Lane = "user" | "background";

const lane = new AsyncLocalStorage<Lane>();

/** Runs `work` with every upstream request it makes (however deep) in the background lane. */
export function inBackground<T>(work: () => T): T {
  return lane.run("background", work);
}

export function currentLane(): Lane {
  return lane.getStore() ?? "user";
}

export interface UpstreamBudgetOptions {
  /** Background requests per second at most. */
  ratePerSecond?: number;
  /** The upstream's own limit per second (the background keeps below it, leaving the rest to users). */
  limitPerSecond?: number;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface UpstreamBudgetSnapshot {
  ratePerSecond: number;
  configuredRatePerSecond: number;
  pausedForMs: number;
  rateLimited: Record<Lane, number>;
  sent: Record<Lane, number>;
}

export const DEFAULT_BACKGROUND_RATE = 25;
export const DEFAULT_UPSTREAM_LIMIT = 50;
const RECOVER_EVERY_MS = 10_000;
const WINDOW_MS = 1_000;

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export class UpstreamBudget {
  private readonly configured: number;
  private readonly limit: number;
  private rate: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private nextAt = 0;
  private pausedUntil = 0;
  private lastChange = 0;
  private userStamps: number[] = [];
  private queue: Promise<void> = Promise.resolve();
  private readonly counts = {
    rateLimited: { user: 0, background: 0 } as Record<Lane, number>,
    sent: { user: 0, background: 0 } as Record<Lane, number>,
  };

  constructor(options: UpstreamBudgetOptions = {}) {
    this.limit = Math.max(1, options.limitPerSecond ?? DEFAULT_UPSTREAM_LIMIT);
    this.configured = Math.max(0.1, Math.min(options.ratePerSecond ?? DEFAULT_BACKGROUND_RATE, this.limit));
    this.rate = this.configured;
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? defaultSleep;
  }

  /** Waits (background lane only) until a request may go, and counts it as sent. */
  async admit(which: Lane, signal?: AbortSignal): Promise<void> {
    if (which === "user") {
      const now = this.now();
      this.userStamps.push(now);
      if (this.userStamps.length > 4 * this.limit) this.trimUsers(now);
      this.counts.sent.user += 1;
      return;
    }
    // Background requests take their turns one after another, each at its spacing.
    const turn = this.queue.then(() => this.waitForSlot(signal));
    this.queue = turn.catch(() => {});
    await turn;
    this.counts.sent.background += 1;
  }

  /** A 429 answer: slow the background down and pause it for `retryAfterSeconds`. */
  rateLimited(which: Lane, retryAfterSeconds: number | undefined): void {
    const now = this.now();
    this.counts.rateLimited[which] += 1;
    this.rate = Math.max(this.configured / 16, this.rate / 2);
    this.lastChange = now;
    this.pausedUntil = Math.max(this.pausedUntil, now + Math.max(1, retryAfterSeconds ?? 1) * 1000);
  }

  snapshot(): UpstreamBudgetSnapshot {
    return {
      ratePerSecond: this.rate,
      configuredRatePerSecond: this.configured,
      pausedForMs: Math.max(0, this.pausedUntil - this.now()),
      rateLimited: { ...this.counts.rateLimited },
      sent: { ...this.counts.sent },
    };
  }

  private trimUsers(now: number): void {
    const from = now - WINDOW_MS;
    let i = 0;
    while (i < this.userStamps.length && this.userStamps[i]! <= from) i += 1;
    if (i > 0) this.userStamps.splice(0, i);
  }

  private recover(now: number): void {
    while (this.rate < this.configured && now - this.lastChange >= RECOVER_EVERY_MS) {
      this.rate = Math.min(this.configured, this.rate + this.configured / 10);
      this.lastChange += RECOVER_EVERY_MS;
    }
  }

  private async waitForSlot(signal?: AbortSignal): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      const now = this.now();
      this.recover(now);
      this.trimUsers(now);
      let waitMs = Math.max(this.pausedUntil - now, this.nextAt - now, 0);
      // The users' share: while their last second used more than the limit leaves beside the background, wait.
      if (waitMs === 0 && this.userStamps.length + this.rate > this.limit) {
        waitMs = Math.max(1, this.userStamps[0]! + WINDOW_MS - now);
      }
      if (waitMs === 0) {
        this.nextAt = now + 1000 / this.rate;
        return;
      }
      await this.sleep(waitMs, signal);
    }
  }
}
