import "server-only";
import type { Logger } from "pino";
import { CallStateMachine, type CallFetcher, type CallStateOptions, type RelayLogger } from "./call-state";
import type { UpstreamFrame } from "../upstream/stream/frames";
import type { ScaleNode } from "../scale/scale-node";
import type { LiveHub } from "./hub";
import { UpstreamSocket, type StreamState, type UpstreamSocketOptions } from "../upstream/stream/socket";

/**
 * Wiring of the live path: one upstream socket → per-call sequencing → the hub. The runtime (server/runtime/) builds
 * one `Live` per process; its relay runs while this instance may hold the upstream socket (always when alone; while
 * it leads with REDIS_URL).
 */

export interface Relay {
  hub: LiveHub;
  socket: UpstreamSocket;
  calls: CallStateMachine;
  state(): StreamState;
  stop(): void;
}

export interface CreateRelayOptions {
  hub: LiveHub;
  wsBaseUrl: string;
  apiKey: string;
  fetcher: CallFetcher;
  log: RelayLogger;
  socket?: Partial<Omit<UpstreamSocketOptions, "wsBaseUrl" | "apiKey" | "onFrame" | "onOpen" | "log">>;
  calls?: Partial<Omit<CallStateOptions, "publish" | "fetcher" | "log">>;
}

export function createRelay(options: CreateRelayOptions): Relay {
  const log = options.log;
  const calls = new CallStateMachine({
    ...options.calls,
    publish: (payload) => options.hub.publish(payload),
    fetcher: options.fetcher,
    log,
  });

  const onFrame = (frame: UpstreamFrame) => {
    switch (frame.kind) {
      case "audio":
        calls.onAudio(frame.callId, frame.symbol);
        return;
      case "sentence":
        calls.onSentence(frame.sentence);
        return;
      case "list":
        calls.onLiveList(frame.calls);
        return;
      case "error":
        log.warn({ message: frame.message.slice(0, 200) }, "relay: upstream reported an error on the stream");
        return;
      case "ack":
        log.info({ ticker: frame.ticker, action: frame.action }, "relay: upstream subscription acknowledged");
        return;
      case "connected":
      case "subscriptions":
      case "pong":
      case "unknown":
        return;
    }
  };

  let downSince: number | null = null;
  const socket = new UpstreamSocket({
    ...options.socket,
    wsBaseUrl: options.wsBaseUrl,
    apiKey: options.apiKey,
    log,
    onFrame,
    onStateChange: (state) => {
      if (state !== "open" && downSince === null) downSince = Date.now();
      options.socket?.onStateChange?.(state);
    },
    onOpen: ({ reconnect }) => {
      if (reconnect) calls.onReconnected(downSince ?? undefined);
      downSince = null;
    },
  });

  return {
    hub: options.hub,
    socket,
    calls,
    state: () => socket.state,
    stop() {
      socket.stop();
      calls.dispose();
    },
  };
}

/* ------------------------------------------------------------------ the process's live side */

export interface Live {
  hub: LiveHub;
  /** This instance's part in a Redis deployment; null without REDIS_URL. */
  scale: ScaleNode | null;
  relay(): Relay | null;
  /** Health's view of the upstream stream. `closed` also when no relay runs. */
  streamState(): StreamState;
  /** Starts the relay once (idempotent); null when the upstream is not configured. */
  start(): Relay | null;
  /** Stops the relay (and the campaign for leadership); the hub stays, so open SSE clients simply stop receiving. */
  stop(): void;
}

export interface LiveOptions {
  hub: LiveHub;
  scale: ScaleNode | null;
  /** Where the upstream stream is; null when not configured (the hub still serves, nothing is published). */
  upstream: { wsBaseUrl: string; apiKey: string } | null;
  fetcher: CallFetcher;
  log: Logger;
  relay?: Partial<Pick<CreateRelayOptions, "socket" | "calls">>;
}

export function createLive(options: LiveOptions): Live {
  const { hub, scale, log } = options;
  let relay: Relay | null = null;
  let started = false;
  return {
    hub,
    scale,
    relay: () => relay,
    streamState: () => relay?.state() ?? "closed",
    start() {
      if (started) return relay;
      started = true;
      if (!options.upstream) {
        log.warn(
          {},
          "relay: upstream not configured (UPSTREAM_BASE_URL / UPSTREAM_API_KEY); live stream disabled",
        );
        return null;
      }
      const settings: CreateRelayOptions = {
        ...options.relay,
        ...options.upstream,
        hub,
        fetcher: options.fetcher,
        log,
      };
      if (scale) {
        // Only the elected leader holds the upstream socket; the relay comes and goes with leadership.
        scale.campaign(
          () => createRelay(settings),
          (next) => {
            relay = next as Relay | null;
          },
        );
        return relay;
      }
      relay = createRelay(settings);
      relay.socket.start();
      return relay;
    },
    stop() {
      if (scale) void scale.stopCampaign();
      relay?.stop();
      relay = null;
      started = false;
    },
  };
}
