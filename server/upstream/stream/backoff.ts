import "server-only";

export interface BackoffOptions {
  /** First ceiling, in ms. */
  baseMs: number;
  /** Largest ceiling, in ms. */
  capMs: number;
  /** Source of randomness in [0, 1); injectable for tests. */
  random?: () => number;
}

/**
 * Full-jitter exponential backoff: the n-th delay is uniform in [0, min(cap, base·2ⁿ)].
 * Full jitter (rather than equal jitter) spreads a fleet of reconnecting clients the most, which matters when one
 * upstream hiccup disconnects every instance at the same moment.
 */
export class Backoff {
  private attempt = 0;
  private readonly random: () => number;

  constructor(private readonly options: BackoffOptions) {
    this.random = options.random ?? Math.random;
  }

  /** Ceiling of the next delay. */
  ceilingMs(): number {
    const exp = this.options.baseMs * 2 ** Math.min(this.attempt, 30);
    return Math.min(this.options.capMs, exp);
  }

  /** The next delay; advances the attempt counter. */
  next(): number {
    const delay = Math.floor(this.random() * this.ceilingMs());
    this.attempt += 1;
    return delay;
  }

  get attempts(): number {
    return this.attempt;
  }

  reset(): void {
    this.attempt = 0;
  }
}
