import "server-only";
import type { Health } from "@/lib/schemas/health";
import type { StructuredLog } from "../log";
import type { StreamState } from "../upstream/stream/socket";
import type { LiveBus } from "./bus";
import { createConsumer, type Consumer, type ConsumerOptions } from "./consumer";
import { createBrowserFanout, type BrowserFanout } from "./fanout";
import type { CallFetcher } from "./sequencer";

/**
 * The live bus of this instance, assembled (docs/architecture.md, "The live bus"): the bus, the browsers' fan-out
 * subscribed to it, and the upstream consumer that publishes onto it, which runs while this instance may hold the
 * upstream socket (alone: always; with REDIS_URL: while it leads, `Leadership`).
 */

/** This instance's part in a Redis deployment (server/scale/scale-node.ts implements it). */
export interface Leadership {
  role(): "leader" | "follower";
  /** Whether this instance's bus follows the shared event stream. */
  following(): boolean;
  /** Starts campaigning; `makeConsumer` builds a consumer (not yet started) publishing onto the bus. */
  campaign(makeConsumer: () => Consumer, onConsumer: (consumer: Consumer | null) => void): void;
  /** Steps down (stopping the consumer) and stops campaigning; the bus keeps following the stream. */
  stopCampaign(): Promise<void>;
}

export type StreamStatus = Health["upstream"]["stream"];

export interface Live {
  bus: LiveBus;
  browsers: BrowserFanout;
  /** This instance's part in a Redis deployment; null without REDIS_URL. */
  leadership: Leadership | null;
  consumer(): Consumer | null;
  /** State of the upstream socket; `closed` also when no consumer runs here. */
  streamState(): StreamState;
  /** Health's view of the live side (`/api/health`'s `upstream.stream`). */
  streamStatus(): StreamStatus;
  /** Starts the consumer once (idempotent); null when the upstream is not configured or another instance leads. */
  start(): Consumer | null;
  /** Stops the consumer (and the campaign for leadership); the bus stays, so open browser streams stop receiving. */
  stop(): void;
}

export interface LiveOptions {
  bus: LiveBus;
  leadership: Leadership | null;
  /** Where the upstream stream is; null when not configured (the bus still serves, nothing is published). */
  upstream: { wsBaseUrl: string; apiKey: string } | null;
  fetcher: CallFetcher;
  log: StructuredLog;
  /** A browser stream's callback threw (reported, and the other streams still get the event). */
  onSubscriberError?: (error: unknown) => void;
  consumer?: Partial<Pick<ConsumerOptions, "socket" | "sequencer">>;
}

export function createLive(options: LiveOptions): Live {
  const { bus, leadership, log } = options;
  let consumer: Consumer | null = null;
  let started = false;

  const socketStatus = (): "ok" | "connecting" | "error" => {
    switch (consumer?.state() ?? "closed") {
      case "open":
        return "ok";
      case "connecting":
      case "reconnecting":
        return "connecting";
      default:
        return "error";
    }
  };

  return {
    bus,
    browsers: createBrowserFanout(bus, { onSubscriberError: options.onSubscriberError }),
    leadership,
    consumer: () => consumer,
    streamState: () => consumer?.state() ?? "closed",
    streamStatus() {
      if (leadership) {
        const role = leadership.role();
        if (role === "follower") return { state: leadership.following() ? "ok" : "connecting", role };
        return { state: consumer ? socketStatus() : "connecting", role };
      }
      return consumer ? socketStatus() : "unknown";
    },
    start() {
      if (started) return consumer;
      started = true;
      if (!options.upstream) {
        log.warn({}, "live: upstream not configured (UPSTREAM_BASE_URL / UPSTREAM_API_KEY); no live events");
        return null;
      }
      const make = () =>
        createConsumer({
          ...options.consumer,
          ...options.upstream!,
          publish: (payload) => bus.publish(payload),
          fetcher: options.fetcher,
          log,
        });
      if (leadership) {
        // Only the elected leader holds the upstream socket; the consumer comes and goes with leadership.
        leadership.campaign(make, (next) => {
          consumer = next;
        });
        return consumer;
      }
      consumer = make();
      consumer.socket.start();
      return consumer;
    },
    stop() {
      if (leadership) void leadership.stopCampaign();
      consumer?.stop();
      consumer = null;
      started = false;
    },
  };
}
