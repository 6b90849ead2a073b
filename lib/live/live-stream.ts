import type { LiveMessage } from "@/lib/schemas/live";
import { LIVE_EVENT_NAMES, parseLiveMessage } from "./live-message";

export type StreamState = "connecting" | "open" | "reconnecting";

export interface StreamTarget {
  /** Call ids to follow. */
  calls?: readonly string[];
  /** `*` for every call. */
  tickers?: "*" | readonly string[];
}

export function streamUrl(target: StreamTarget, cursor: string | null): string {
  const params = new URLSearchParams();
  if (target.tickers) params.set("tickers", target.tickers === "*" ? "*" : target.tickers.join(","));
  if (target.calls && target.calls.length > 0) params.set("calls", target.calls.join(","));
  if (cursor) params.set("cursor", cursor);
  return `/api/stream?${params.toString()}`;
}

export interface LiveStreamOptions {
  target: StreamTarget;
  /** Where to start: the cursor of the snapshot the page shows, so nothing between snapshot and stream is missed. */
  cursor: string | null;
  onMessage: (message: LiveMessage) => void;
  onState: (state: StreamState) => void;
  createEventSource?: (url: string) => EventSource;
  /** Delay before reopening a stream the browser gave up on (it retries by itself otherwise). */
  backoffMs?: (attempt: number) => number;
}

const defaultBackoff = (attempt: number) => Math.random() * Math.min(30_000, 1_000 * 2 ** attempt);

/**
 * One EventSource for the page. While the connection drops and comes back, the browser reconnects by itself and
 * sends `Last-Event-ID`, so the server resumes exactly after the last event seen. When the browser gives up (the
 * server answered an error or a non-stream response: readyState CLOSED), a new EventSource is opened after a
 * jittered backoff, resuming from the last id seen through `?cursor=`.
 */
export function openLiveStream(options: LiveStreamOptions): () => void {
  const create = options.createEventSource ?? ((url: string) => new EventSource(url));
  const backoff = options.backoffMs ?? defaultBackoff;
  let lastId = options.cursor;
  let source: EventSource | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let attempt = 0;
  let isClosed = false;

  const onEvent = (event: Event) => {
    const message = event as MessageEvent<string>;
    if (message.lastEventId) lastId = message.lastEventId;
    const parsed = parseLiveMessage(event.type, message.lastEventId, message.data);
    if (parsed) options.onMessage(parsed);
  };

  const open = () => {
    if (isClosed) return;
    const es = create(streamUrl(options.target, lastId));
    source = es;
    for (const name of LIVE_EVENT_NAMES) es.addEventListener(name, onEvent);
    es.onopen = () => {
      attempt = 0;
      options.onState("open");
    };
    es.onerror = () => {
      if (isClosed) return;
      options.onState("reconnecting");
      if (es.readyState === 2 /* CLOSED */) {
        es.close();
        retryTimer = setTimeout(open, backoff(attempt++));
      }
    };
  };

  options.onState("connecting");
  open();

  return () => {
    isClosed = true;
    if (retryTimer) clearTimeout(retryTimer);
    source?.close();
    source = null;
  };
}
