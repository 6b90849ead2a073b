import "server-only";
import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";

/**
 * Prometheus metrics for `/api/metrics`: a leaf module. What has to be observed as it happens (upstream latency,
 * rate-limit refusals, live events and their lag) is recorded through the functions of the `Metrics` object, which the
 * runtime hands to the parts that observe (the live bus's events: the runtime subscribes `observeLiveEvent`). Values
 * read from live objects at scrape time (browser streams, the upstream socket, cache, breaker) are registered by
 * collectors.ts, also from the runtime, so no module that is observed has to import what it is observed by.
 */

/** A live-bus event as far as the metrics look at it. */
export interface ObservedLiveEvent {
  event: string;
  data: { callId: string; endMs?: number };
}

export interface Metrics {
  registry: Registry;
  observeUpstreamCall(outcome: string, seconds: number): void;
  countRateLimited(scope: "api" | "sse" | "login"): void;
  /** A 429 from the market-data service, by the lane of the request (server/upstream/budget.ts). */
  countUpstreamRateLimited(lane: "user" | "background"): void;
  /**
   * Counts a live event; for a sentence, also the lag from its end in the call to now. `callStartTime` gives the
   * call's start (ISO 8601), read only for sentences.
   */
  observeLiveEvent(event: ObservedLiveEvent, callStartTime: () => string | undefined): void;
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
    help: "Events on the live bus, by event name.",
    labelNames: ["event"] as const,
    registers: [registry],
  });
  const relayLag = new Histogram({
    name: "callroom_relay_lag_seconds",
    help: "Live bus lag: time from a sentence's end in the call to its publication to SSE clients.",
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
    observeLiveEvent(event, callStartTime) {
      liveEvents.inc({ event: event.event });
      if (event.event !== "sentence" || event.data.endMs === undefined) return;
      const start = Date.parse(callStartTime() ?? "");
      if (!Number.isFinite(start)) return;
      const lagSeconds = (Date.now() - (start + event.data.endMs)) / 1000;
      // Replays of old calls and clock skew are not lag.
      if (lagSeconds >= 0 && lagSeconds < 3600) relayLag.observe(lagSeconds);
    },
  };
}
