import "server-only";
import { Gauge } from "prom-client";
import type { LiveHub } from "../live/hub";
import type { Relay } from "../live/relay";
import type { StreamState } from "../upstream/stream/socket";
import type { CircuitBreaker } from "../security/circuit-breaker";
import type { AnswerStoreStats } from "../http/answer-store";
import type { ResponseCache } from "../upstream/cache";
import type { Metrics } from "./registry";

/**
 * The metrics read from live objects at scrape time. Only `/api/metrics` imports this module (so the registry stays a
 * leaf): it registers these gauges once per registry, and taps the hub to count events and measure relay lag.
 */

export interface CollectedParts {
  hub: LiveHub;
  relay(): Relay | null;
  streamState(): StreamState;
  breaker: CircuitBreaker;
  cache: ResponseCache;
  /** The answer door's store of whole answers (server/http/answer-door.ts). */
  answers: { stats(): AnswerStoreStats };
}

const STREAM_STATES = ["connecting", "open", "reconnecting", "closed"] as const;
const BREAKER_VALUES = { closed: 0, half_open: 1, open: 2 } as const;

export function installCollectors(metrics: Metrics, parts: CollectedParts): void {
  if (metrics.collectorsInstalled) return;
  metrics.collectorsInstalled = true;
  const registry = metrics.registry;
  const { hub } = parts;

  new Gauge({
    name: "callroom_sse_clients",
    help: "Open Server-Sent Events connections.",
    registers: [registry],
    collect() {
      // The tap below is a subscriber too.
      this.set(Math.max(0, hub.subscriberCount() - 1));
    },
  });
  new Gauge({
    name: "callroom_upstream_stream_state",
    help: "State of the one upstream WebSocket (1 = current state).",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      const current = parts.streamState();
      for (const state of STREAM_STATES) this.set({ state }, state === current ? 1 : 0);
    },
  });
  new Gauge({
    name: "callroom_upstream_breaker_state",
    help: "Upstream REST circuit breaker: 0 closed, 1 half-open, 2 open.",
    registers: [registry],
    collect() {
      this.set(BREAKER_VALUES[parts.breaker.state]);
    },
  });
  new Gauge({
    name: "callroom_upstream_breaker_rejections",
    help: "Calls refused by the open breaker since start.",
    registers: [registry],
    collect() {
      this.set(parts.breaker.stats().rejections);
    },
  });
  new Gauge({
    name: "callroom_cache_requests",
    help: "Response cache lookups since start, by result (counter semantics).",
    labelNames: ["result"] as const,
    registers: [registry],
    collect() {
      const s = parts.cache.stats();
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
      this.set(parts.cache.stats().size);
    },
  });
  new Gauge({
    name: "callroom_answer_store_lookups",
    help: "Stored-answer lookups since start, by result: hit (fresh), stale (served while one request asks Next), miss (counter semantics).",
    labelNames: ["result"] as const,
    registers: [registry],
    collect() {
      const s = parts.answers.stats();
      this.set({ result: "hit" }, s.hits);
      this.set({ result: "stale" }, s.stale);
      this.set({ result: "miss" }, s.misses);
    },
  });
  new Gauge({
    name: "callroom_answer_store_entries",
    help: "Whole answers held by the answer door.",
    registers: [registry],
    collect() {
      this.set(parts.answers.stats().size);
    },
  });
  new Gauge({
    name: "callroom_answer_store_bytes",
    help: "Bytes the answer door holds (bodies, their compressed variants and keys).",
    registers: [registry],
    collect() {
      this.set(parts.answers.stats().bytes);
    },
  });
  new Gauge({
    name: "callroom_relay_sentences",
    help: "Sentences the relay sequenced since start, by source (counter semantics).",
    labelNames: ["source"] as const,
    registers: [registry],
    collect() {
      const stats = parts.relay()?.calls.stats();
      this.set({ source: "socket" }, stats?.fromSocket ?? 0);
      this.set({ source: "rest" }, stats?.fromRest ?? 0);
    },
  });

  hub.subscribe({ tickers: "*", calls: [] }, null, (event) => {
    metrics.countLiveEvent(event.event);
    if (event.event !== "sentence") return;
    const snapshot = hub.snapshot(event.data.callId);
    const start = snapshot ? Date.parse(snapshot.startTime) : Number.NaN;
    if (Number.isFinite(start)) {
      const lagSeconds = (Date.now() - (start + event.data.endMs)) / 1000;
      // Replays of old calls and clock skew are not lag.
      if (lagSeconds >= 0 && lagSeconds < 3600) metrics.observeRelayLag(lagSeconds);
    }
  });
}

export async function renderMetrics(metrics: Metrics, parts: CollectedParts) {
  installCollectors(metrics, parts);
  return { body: await metrics.registry.metrics(), contentType: metrics.registry.contentType };
}
