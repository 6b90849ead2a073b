/**
 * Per-key request rate limit (docs/upstream.md §1): at most `perSecond` requests in any sliding one-second window.
 * A sliding log rather than fixed windows, so a burst straddling a second boundary cannot get twice the rate.
 */
export interface RateDecision {
  allowed: boolean;
  /** Whole seconds until a request would be allowed again (the `Retry-After` value); 0 when allowed. */
  retryAfterSeconds: number;
}

const WINDOW_MS = 1000;

export class RateLimiter {
  private readonly log = new Map<string, number[]>();

  /** `perSecond` 0 turns the limit off. */
  constructor(private readonly perSecond: number) {}

  take(key: string, nowMs: number): RateDecision {
    if (this.perSecond <= 0) return { allowed: true, retryAfterSeconds: 0 };
    const stamps = (this.log.get(key) ?? []).filter((stamp) => stamp > nowMs - WINDOW_MS);
    if (stamps.length >= this.perSecond) {
      this.log.set(key, stamps);
      const oldest = stamps[0] as number;
      // Retry-After is whole seconds; round up so a client that obeys it is never refused again at once.
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((oldest + WINDOW_MS - nowMs) / 1000)),
      };
    }
    stamps.push(nowMs);
    this.log.set(key, stamps);
    return { allowed: true, retryAfterSeconds: 0 };
  }
}
