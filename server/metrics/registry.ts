import "server-only";
import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";

/**
 * Prometheus metrics for `/api/metrics`: a leaf module. What has to be observed as it happens (upstream latency,
 * rate-limit refusals, live events and their lag) is recorded through the functions of the `Metrics` object, which the
 * runtime hands to the modules that observe. Values read from live objects at scrape time (hub, relay, cache,
 * breaker) are registered by server/metrics/collectors.ts, which only `/api/metrics` imports, so no module that is
 * observed has to import what it is observed by.
 */

export interface Metrics {
  registry: Registry;
  observeUpstreamCall(outcome: string, seconds: number): void;
  countRateLimited(scope: "api" | "sse" | "login"): void;
  /** A 429 from the market-data service, by the lane of the request (server/upstream/budget.ts). */
  countUpstreamRateLimited(lane: "user" | "background"): void;
  countLiveEvent(event: string): void;
  observeRelayLag(seconds: number): void;
  /** Set by the collectors once they are registered (they must be registered once per registry). */
  collectorsInstalled: boolean;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "callroom_" });

  const upstreamDuration = new Histogram({
    name: "callroom_upstream_request_duration_seconds",
    help: "Upstream REST calls (retry included), by outcome.",
    labelNames: ["outcome"] as const,
    buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8],
    registers: [registry],
  });
  const liveEvents = new Counter({
    name: "callroom_live_events_total",
    help: "Live events published by the relay's hub, by event name.",
    labelNames: ["event"] as const,
    registers: [registry],
  });
  const relayLag = new Histogram({
    name: "callroom_relay_lag_seconds",
    help: "Time from a sentence's end in the call to its publication to SSE clients.",
    buckets: [0.25, 0.5, 1, 2, 4, 8, 16, 32],
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: "callroom_rate_limited_total",
    help: "Requests refused by our own limits, by scope.",
    labelNames: ["scope"] as const,
    registers: [registry],
  });

  const upstreamRateLimited = new Counter({
    name: "callroom_upstream_rate_limited_total",
    help: "Answers of 429 (rate limit) from the market-data service, by lane (user or background).",
    labelNames: ["lane"] as const,
    registers: [registry],
  });
  // Both lanes exist from the start, so a scrape shows 0 rather than nothing.
  upstreamRateLimited.inc({ lane: "user" }, 0);
  upstreamRateLimited.inc({ lane: "background" }, 0);

  return {
    registry,
    observeUpstreamCall: (outcome, seconds) => upstreamDuration.observe({ outcome }, seconds),
    countRateLimited: (scope) => rateLimited.inc({ scope }),
    countUpstreamRateLimited: (lane) => upstreamRateLimited.inc({ lane }),
    countLiveEvent: (event) => liveEvents.inc({ event }),
    observeRelayLag: (seconds) => relayLag.observe(seconds),
    collectorsInstalled: false,
  };
}
