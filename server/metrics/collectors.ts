import "server-only";
import { Gauge } from "prom-client";
import type { Metrics } from "./registry";

/**
 * The metrics read from live objects at scrape time, installed once per registry by the composition root
 * (server/runtime/create-runtime.ts). The parts are handed over as readers, so this module, like the registry,
 * imports nothing of what it observes.
 */

export interface CollectedParts {
  /** Open browser streams of the live bus's fan-out (browsers only). */
  browserStreams(): number;
  streamState(): "connecting" | "open" | "reconnecting" | "closed";
  breaker(): { state: "closed" | "half_open" | "open"; rejections: number };
  cache(): {
    hits: number;
    misses: number;
    staleWhileRevalidate: number;
    staleIfError: number;
    coalesced: number;
    size: number;
  };
  /** The stored answers of the market-data routes. */
  answers(): { hits: number; stale: number; misses: number; size: number; bytes: number };
  /** Sentences the sequencer published, by source; null while no upstream consumer runs here. */
  sequenced(): { fromSocket: number; fromRest: number } | null;
}

const STREAM_STATES = ["connecting", "open", "reconnecting", "closed"] as const;
const BREAKER_VALUES = { closed: 0, half_open: 1, open: 2 } as const;

export function installCollectors(metrics: Metrics, parts: CollectedParts): void {
  const registry = metrics.registry;

  new Gauge({
    name: "callroom_sse_clients",
    help: "Open live streams of browsers (`/api/stream`).",
    registers: [registry],
    collect() {
      this.set(parts.browserStreams());
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
      this.set(BREAKER_VALUES[parts.breaker().state]);
    },
  });
  new Gauge({
    name: "callroom_upstream_breaker_rejections",
    help: "Calls refused by the open breaker since start.",
    registers: [registry],
    collect() {
      this.set(parts.breaker().rejections);
    },
  });
  new Gauge({
    name: "callroom_cache_requests",
    help: "Response cache lookups since start, by result (counter semantics).",
    labelNames: ["result"] as const,
    registers: [registry],
    collect() {
      const s = parts.cache();
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
      this.set(parts.cache().size);
    },
  });
  new Gauge({
    name: "callroom_answer_store_lookups",
    help: "Stored-answer lookups since start, by result: hit (fresh), stale (served while one request asks Next), miss (counter semantics).",
    labelNames: ["result"] as const,
    registers: [registry],
    collect() {
      const s = parts.answers();
      this.set({ result: "hit" }, s.hits);
      this.set({ result: "stale" }, s.stale);
      this.set({ result: "miss" }, s.misses);
    },
  });
  new Gauge({
    name: "callroom_answer_store_entries",
    help: "Whole answers held by the market-data router.",
    registers: [registry],
    collect() {
      this.set(parts.answers().size);
    },
  });
  new Gauge({
    name: "callroom_answer_store_bytes",
    help: "Bytes the market-data router holds (bodies, their compressed variants and keys).",
    registers: [registry],
    collect() {
      this.set(parts.answers().bytes);
    },
  });
  new Gauge({
    name: "callroom_relay_sentences",
    help: "Sentences the live bus's sequencer published since start, by source (counter semantics).",
    labelNames: ["source"] as const,
    registers: [registry],
    collect() {
      const stats = parts.sequenced();
      this.set({ source: "socket" }, stats?.fromSocket ?? 0);
      this.set({ source: "rest" }, stats?.fromRest ?? 0);
    },
  });
}

/** The registry's text, for `/api/metrics`. */
export async function renderMetrics(metrics: Metrics): Promise<{ body: string; contentType: string }> {
  return { body: await metrics.registry.metrics(), contentType: metrics.registry.contentType };
}
