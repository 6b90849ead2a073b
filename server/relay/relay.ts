import "server-only";
import { getEnv } from "../env";
import { getLogger, registerSecret } from "../log";
import { fetchUpstreamCall, listCallsStartedSince, toCall } from "../upstream/calls";
import { CallStateMachine, type CallFetcher, type CallStateOptions, type RelayLogger } from "./call-state";
import type { UpstreamFrame } from "./frames";
import { maybeStartBenchHooks } from "./bench-hook";
import { createScaleNode, type ScaleNode } from "../scale/scale-node";
import { redisUrl } from "../scale/redis";
import { InMemoryHub, type LiveHub } from "./hub";
import { UpstreamSocket, type StreamState, type UpstreamSocketOptions } from "./upstream-socket";

/**
 * Wiring of the live path: one upstream socket → per-call sequencing → the hub. One relay per server process, kept
 * on `globalThis[Symbol.for("callroom.relay")]`: Next compiles `instrumentation.ts` and each route handler as
 * separate entries that do not share module instances, and dev reloads re-evaluate modules, but `globalThis` is one
 * per process.
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
  fetcher?: CallFetcher;
  log?: RelayLogger;
  socket?: Partial<Omit<UpstreamSocketOptions, "wsBaseUrl" | "apiKey" | "onFrame" | "onOpen" | "log">>;
  calls?: Partial<Omit<CallStateOptions, "publish" | "fetcher" | "log">>;
}

/** The relay's REST reads: the call as the upstream has it now (never a cached copy). */
export const upstreamCallFetcher: CallFetcher = {
  async fetchCall(callId, signal) {
    const raw = await fetchUpstreamCall(callId, { signal });
    if (!raw) return null;
    const call = toCall(raw);
    return {
      callId: call.callId,
      symbol: call.symbol,
      name: call.name,
      startTime: call.startTime,
      status: call.status,
      segments: call.segments,
    };
  },
  async listCallsStartedSince(fromIso, signal, page) {
    const calls = await listCallsStartedSince(fromIso, { signal, page });
    return calls.map((c) => ({ callId: c.callId, symbol: c.symbol }));
  },
};

export function createRelay(options: CreateRelayOptions): Relay {
  const log = options.log ?? getLogger();
  const calls = new CallStateMachine({
    ...options.calls,
    publish: (payload) => options.hub.publish(payload),
    fetcher: options.fetcher ?? upstreamCallFetcher,
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

/* ------------------------------------------------------------------ the process-wide singleton */

const RELAY = Symbol.for("callroom.relay");

interface RelayStore {
  hub: LiveHub;
  relay: Relay | null;
  /** Set when REDIS_URL is: the hub is the shared Redis stream and the relay runs only while this instance leads. */
  scale?: ScaleNode;
}

type Holder = { [RELAY]?: RelayStore };

function store(): RelayStore {
  const holder = globalThis as Holder;
  holder[RELAY] ??= scaleStore();
  holder[RELAY] ??= {
    hub: maybeStartBenchHooks(
      new InMemoryHub({
        onSubscriberError: (error) => getLogger().warn({ err: error }, "relay: subscriber failed"),
      }),
    ),
    relay: null,
  };
  return holder[RELAY];
}

/** With REDIS_URL set, the store of a scale-out instance (issue 7); otherwise undefined (the in-memory hub). */
function scaleStore(): RelayStore | undefined {
  const url = redisUrl();
  if (!url) return undefined;
  const scale = createScaleNode({
    url,
    log: getLogger(),
    onSubscriberError: (error) => getLogger().warn({ err: error }, "relay: subscriber failed"),
  });
  return { hub: scale.hub, relay: null, scale };
}

/** This instance's part in a Redis deployment; null without REDIS_URL. */
export function getScaleNode(): ScaleNode | null {
  return store().scale ?? null;
}

/** The process's hub: exists even when the relay is not running (no upstream configured), so routes can subscribe. */
export function getHub(): LiveHub {
  return store().hub;
}

export function getRelay(): Relay | null {
  return store().relay;
}

/** Health's view of the upstream stream. `closed` also when no relay runs (no upstream configured). */
export function getStreamState(): StreamState {
  return store().relay?.state() ?? "closed";
}

/**
 * Starts the process's relay once (idempotent: a second call, from a dev reload or a second entry, is a no-op).
 * Returns null when the upstream is not configured.
 */
export function startRelay(overrides: Partial<Omit<CreateRelayOptions, "hub">> = {}): Relay | null {
  const s = store();
  if (s.relay) return s.relay;
  let wsBaseUrl = overrides.wsBaseUrl;
  let apiKey = overrides.apiKey;
  if (!wsBaseUrl || !apiKey) {
    const env = getEnv();
    wsBaseUrl ??= env.upstreamWsUrl;
    apiKey ??= env.upstreamApiKey;
  }
  if (!wsBaseUrl || !apiKey) {
    getLogger().warn(
      {},
      "relay: upstream not configured (UPSTREAM_BASE_URL / UPSTREAM_API_KEY); live stream disabled",
    );
    return null;
  }
  registerSecret(apiKey);
  if (s.scale) {
    // Only the elected leader holds the upstream socket; the relay comes and goes with leadership.
    const settings = { ...overrides, hub: s.hub, wsBaseUrl, apiKey };
    s.scale.campaign(
      () => createRelay(settings),
      (relay) => {
        s.relay = relay as Relay | null;
      },
    );
    return s.relay;
  }
  const relay = createRelay({ ...overrides, hub: s.hub, wsBaseUrl, apiKey });
  s.relay = relay;
  relay.socket.start();
  return relay;
}

/** Stops and forgets the relay (tests, shutdown). The hub stays, so open SSE clients simply stop receiving. */
export function stopRelay(): void {
  const s = store();
  if (s.scale) void s.scale.stopCampaign();
  s.relay?.stop();
  s.relay = null;
}

/** Replaces the hub (tests). */
export function resetRelayStore(): void {
  stopRelay();
  void (globalThis as Holder)[RELAY]?.scale?.stop();
  delete (globalThis as Holder)[RELAY];
}
