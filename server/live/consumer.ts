import "server-only";
import type { UpstreamFrame } from "../upstream/stream/frames";
import { UpstreamSocket, type StreamState, type UpstreamSocketOptions } from "../upstream/stream/socket";
import type { LivePayload } from "./bus";
import type { StructuredLog } from "../log";
import { Sequencer, type CallFetcher, type SequencerOptions } from "./sequencer";

/**
 * The live bus's upstream consumer: the one upstream WebSocket, whose frames go to the sequencer, which publishes in
 * order onto the bus. One runs per deployment: alone, always; with REDIS_URL, on the elected leader only.
 */

export interface Consumer {
  socket: UpstreamSocket;
  sequencer: Sequencer;
  state(): StreamState;
  stop(): void;
}

export interface ConsumerOptions {
  publish: (payload: LivePayload) => void;
  wsBaseUrl: string;
  apiKey: string;
  fetcher: CallFetcher;
  log: StructuredLog;
  socket?: Partial<Omit<UpstreamSocketOptions, "wsBaseUrl" | "apiKey" | "onFrame" | "onOpen" | "log">>;
  sequencer?: Partial<Omit<SequencerOptions, "publish" | "fetcher" | "log">>;
}

export function createConsumer(options: ConsumerOptions): Consumer {
  const log = options.log;
  const sequencer = new Sequencer({
    ...options.sequencer,
    publish: options.publish,
    fetcher: options.fetcher,
    log,
  });

  const onFrame = (frame: UpstreamFrame) => {
    switch (frame.kind) {
      case "audio":
        sequencer.onAudio(frame.callId, frame.symbol);
        return;
      case "sentence":
        sequencer.onSentence(frame.sentence);
        return;
      case "list":
        sequencer.onLiveList(frame.calls);
        return;
      case "error":
        log.warn({ message: frame.message.slice(0, 200) }, "live: upstream reported an error on the stream");
        return;
      case "ack":
        log.info({ ticker: frame.ticker, action: frame.action }, "live: upstream subscription acknowledged");
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
      if (reconnect) sequencer.onReconnected(downSince ?? undefined);
      downSince = null;
    },
  });

  return {
    socket,
    sequencer,
    state: () => socket.state,
    stop() {
      socket.stop();
      sequencer.dispose();
    },
  };
}
