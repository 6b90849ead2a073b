import "server-only";
import { AppError } from "../errors";

/**
 * A circuit breaker for the upstream REST API. Closed: calls pass, outcomes are recorded. It opens after
 * `consecutiveFailures` failures in a row, or when at least `minCalls` calls in the last `windowMs` failed at
 * `failureRate` or more. Open: calls fail at once with our 503 (the response cache then serves its stale copy),
 * sparing a struggling service our retries and our users the timeouts. After `cooldownMs` one probe call is let
 * through (half-open): success closes the breaker, failure opens it for another cool-down.
 *
 * Only signs of an unhealthy service count as failures (network errors, timeouts, 5xx); 401/403/404 answers prove
 * it is up, and cancellations or its 429s say nothing about its health.
 */

export type BreakerState = "closed" | "open" | "half_open";
export type CallOutcome = "success" | "failure" | "neutral";

export interface BreakerOptions {
  consecutiveFailures: number;
  failureRate: number;
  minCalls: number;
  windowMs: number;
  cooldownMs: number;
  now?: () => number;
}

export const DEFAULT_BREAKER_OPTIONS: BreakerOptions = {
  consecutiveFailures: 5,
  failureRate: 0.5,
  minCalls: 20,
  windowMs: 30_000,
  cooldownMs: 10_000,
};

export interface Admission {
  /** This call is the half-open probe. */
  probe: boolean;
}

export class CircuitBreaker {
  private state_: BreakerState = "closed";
  private consecutive = 0;
  private outcomes: { at: number; failed: boolean }[] = [];
  private openedAt = 0;
  private probeInFlight = false;
  private opens = 0;
  private rejections = 0;
  private readonly now: () => number;

  constructor(private readonly options: BreakerOptions = DEFAULT_BREAKER_OPTIONS) {
    this.now = options.now ?? Date.now;
  }

  get state(): BreakerState {
    if (this.state_ === "open" && this.now() - this.openedAt >= this.options.cooldownMs) return "half_open";
    return this.state_;
  }

  stats() {
    return { state: this.state, opens: this.opens, rejections: this.rejections };
  }

  /** Lets a call through, or throws our 503 while open (or while the half-open probe is out). */
  admit(): Admission {
    const state = this.state;
    if (state === "closed") return { probe: false };
    if (state === "half_open" && !this.probeInFlight) {
      this.state_ = "half_open";
      this.probeInFlight = true;
      return { probe: true };
    }
    this.rejections += 1;
    const waitMs = Math.max(1000, this.options.cooldownMs - (this.now() - this.openedAt));
    throw new AppError(
      "upstream_unavailable",
      "The market-data service is failing; we will try it again shortly.",
      { retryAfterSeconds: Math.ceil(waitMs / 1000) },
    );
  }

  record(admission: Admission, outcome: CallOutcome): void {
    const now = this.now();
    if (admission.probe) {
      this.probeInFlight = false;
      if (outcome === "success") this.close();
      else if (outcome === "failure") this.open(now);
      return;
    }
    if (outcome === "neutral") return;
    const failed = outcome === "failure";
    this.consecutive = failed ? this.consecutive + 1 : 0;
    this.outcomes.push({ at: now, failed });
    this.outcomes = this.outcomes.filter((o) => now - o.at < this.options.windowMs);
    if (this.state_ !== "closed") return;
    const failures = this.outcomes.filter((o) => o.failed).length;
    const byRate =
      this.outcomes.length >= this.options.minCalls &&
      failures / this.outcomes.length >= this.options.failureRate;
    if (this.consecutive >= this.options.consecutiveFailures || byRate) this.open(now);
  }

  private open(now: number) {
    this.state_ = "open";
    this.openedAt = now;
    this.opens += 1;
  }

  private close() {
    this.state_ = "closed";
    this.consecutive = 0;
    this.outcomes = [];
  }
}

/** How an upstream client outcome counts for the breaker. */
export function classifyUpstreamError(error: unknown): CallOutcome {
  if (!(error instanceof AppError)) return "failure";
  switch (error.code) {
    case "upstream_timeout":
    case "upstream_error":
      return "failure";
    case "upstream_auth":
    case "upstream_plan":
      return "success";
    default:
      return "neutral";
  }
}
