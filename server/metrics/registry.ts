import "server-only";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { getHub, getRelay, getStreamState } from "../relay/relay";
import { getUpstreamBreaker } from "../security/circuit-breaker";
import { getResponseCache } from "../upstream/cache";

/**
 * Prometheus metrics for `/api/metrics`. Most values are read from the live objects at scrape time (hub, relay,
 * cache, breaker), so the modules that own them carry no metrics code; what has to be observed as it happens (upstream
 * latency, live events and their lag) is recorded by `observeUpstreamCall` and a hub tap. Everything sits on
 * `globalThis`: Next bundles route handlers separately, and one process must have one registry.
 */

interface MetricsStore {
  registry: Registry;
  upstreamDuration: Histogram<"outcome">;
  liveEvents: Counter<"event">;
  relayLag: Histogram;
  rateLimited: Counter<"scope">;
  tapped: boolean;
}

const STORE = Symbol.for("callroom.metrics");
type Holder = { [STORE]?: MetricsStore };

const STREAM_STATES = ["connecting", "open", "reconnecting", "closed"] as const;
const BREAKER_VALUES = { closed: 0, half_open: 1, open: 2 } as const;

function create(): MetricsStore {
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

  new Gauge({
    name: "callroom_sse_clients",
    help: "Open Server-Sent Events connections.",
    registers: [registry],
    collect() {
      const tap = getStore().tapped ? 1 : 0;
      this.set(Math.max(0, getHub().subscriberCount() - tap));
    },
  });
  new Gauge({
    name: "callroom_upstream_stream_state",
    help: "State of the one upstream WebSocket (1 = current state).",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      const current = getStreamState();
      for (const state of STREAM_STATES) this.set({ state }, state === current ? 1 : 0);
    },
  });
  new Gauge({
    name: "callroom_upstream_breaker_state",
    help: "Upstream REST circuit breaker: 0 closed, 1 half-open, 2 open.",
    registers: [registry],
    collect() {
      this.set(BREAKER_VALUES[getUpstreamBreaker().state]);
    },
  });
  new Gauge({
    name: "callroom_upstream_breaker_rejections",
    help: "Calls refused by the open breaker since start.",
    registers: [registry],
    collect() {
      this.set(getUpstreamBreaker().stats().rejections);
    },
  });
  new Gauge({
    name: "callroom_cache_requests",
    help: "Response cache lookups since start, by result (counter semantics).",
    labelNames: ["result"] as const,
    registers: [registry],
    collect() {
      const s = getResponseCache().stats();
      this.set({ result: "hit" }, s.hits);
      this.set({ result: "miss" }, s.misses);
      this.set({ result: "stale_while_revalidate" }, s.staleWhileRevalidate);
      this.set({ result: "stale_if_error" }, s.staleIfError);
      this.set({ result: "coalesced" }, s.coalesced);
    },
  });
  new Gauge({
    name: "callroom_cache_entries",
    help: "Entries in the response cache.",
    registers: [registry],
    collect() {
      this.set(getResponseCache().stats().size);
    },
  });
  new Gauge({
    name: "callroom_relay_sentences",
    help: "Sentences the relay sequenced since start, by source (counter semantics).",
    labelNames: ["source"] as const,
    registers: [registry],
    collect() {
      const stats = getRelay()?.calls.stats();
      this.set({ source: "socket" }, stats?.fromSocket ?? 0);
      this.set({ source: "rest" }, stats?.fromRest ?? 0);
    },
  });

  return { registry, upstreamDuration, liveEvents, relayLag, rateLimited, tapped: false };
}

function getStore(): MetricsStore {
  const holder = globalThis as Holder;
  holder[STORE] ??= create();
  return holder[STORE];
}

/** Subscribes once to the hub to count events and measure lag. */
export function ensureHubTap(): void {
  const store = getStore();
  if (store.tapped) return;
  store.tapped = true;
  const hub = getHub();
  hub.subscribe({ tickers: "*", calls: [] }, null, (event) => {
    store.liveEvents.inc({ event: event.event });
    if (event.event !== "sentence") return;
    const snapshot = hub.snapshot(event.data.callId);
    const start = snapshot ? Date.parse(snapshot.startTime) : Number.NaN;
    if (Number.isFinite(start)) {
      const lagSeconds = (Date.now() - (start + event.data.endMs)) / 1000;
      // Replays of old calls and clock skew are not lag.
      if (lagSeconds >= 0 && lagSeconds < 3600) store.relayLag.observe(lagSeconds);
    }
  });
}

export function observeUpstreamCall(outcome: string, seconds: number): void {
  getStore().upstreamDuration.observe({ outcome }, seconds);
}

export function countRateLimited(scope: "api" | "sse" | "login"): void {
  getStore().rateLimited.inc({ scope });
}

export async function renderMetrics(): Promise<{ body: string; contentType: string }> {
  const store = getStore();
  ensureHubTap();
  return { body: await store.registry.metrics(), contentType: store.registry.contentType };
}
