import "server-only";
import { compareCursors, type LiveBus, type LiveEvent, type StreamEvent, type Unsubscribe } from "./bus";

/**
 * The browsers' fan-out: one subscriber of the live bus (bus.ts) that hands each event to every open browser stream
 * whose filter it matches (`GET /api/stream`: tickers and/or call ids). A stream that resumes (`Last-Event-ID`) first
 * gets what the bus replays after its cursor, synchronously, then live events; `size()` counts open browser streams
 * and nothing else (the `callroom_sse_clients` gauge).
 */

export interface StreamFilter {
  /** `"*"` = every call; otherwise upper-case tickers. */
  tickers: "*" | readonly string[];
  /** Lower-case call ids. */
  calls: readonly string[];
}

/** `upperSymbol`: the event's symbol already upper-cased (done once per event for every stream). */
export function matchesFilter(
  filter: StreamFilter,
  event: { symbol: string | null; data: unknown },
  upperSymbol = event.symbol?.toUpperCase(),
): boolean {
  if (event.symbol === null) return true;
  if (filter.tickers === "*") return true;
  if (upperSymbol !== undefined && filter.tickers.includes(upperSymbol)) return true;
  const callId = (event.data as { callId?: string }).callId;
  return callId !== undefined && filter.calls.includes(callId);
}

interface BrowserStream {
  filter: StreamFilter;
  onEvent: (event: StreamEvent) => void;
  /** Events up to this cursor were already seen (a cursor ahead of this instance's bus). */
  after: string | null;
}

export interface BrowserFanout {
  /**
   * Delivers events matching `filter`. With `fromCursor`, first replays (synchronously, before returning) what
   * followed that cursor, or a single `reset` when it cannot; then live events as they are published.
   */
  subscribe(
    filter: StreamFilter,
    fromCursor: string | null,
    onEvent: (event: StreamEvent) => void,
  ): Unsubscribe;
  /** Open browser streams. */
  size(): number;
  headCursor(): string;
  /** Stops following the bus (the runtime's stop). */
  close(): void;
}

export function createBrowserFanout(
  bus: LiveBus,
  options: { onSubscriberError?: (error: unknown) => void } = {},
): BrowserFanout {
  const streams = new Set<BrowserStream>();
  const deliver = (stream: BrowserStream, event: StreamEvent) => {
    try {
      stream.onEvent(event);
    } catch (error) {
      // One broken stream must not starve the others.
      options.onSubscriberError?.(error);
    }
  };
  const onEvent = (event: LiveEvent) => {
    const upperSymbol = event.symbol.toUpperCase();
    for (const stream of [...streams]) {
      if (!streams.has(stream)) continue;
      if (stream.after !== null) {
        if (compareCursors(event.cursor, stream.after) <= 0) continue;
        stream.after = null;
      }
      if (matchesFilter(stream.filter, event, upperSymbol)) deliver(stream, event);
    }
  };
  const unsubscribe = bus.subscribe(onEvent);

  return {
    subscribe(filter, fromCursor, onStreamEvent) {
      const stream: BrowserStream = { filter, onEvent: onStreamEvent, after: null };
      if (fromCursor !== null) {
        const replay = bus.replay(fromCursor);
        if (replay.kind === "events") {
          for (const event of replay.events) if (matchesFilter(filter, event)) deliver(stream, event);
        } else if (replay.kind === "ahead") {
          stream.after = fromCursor;
        } else {
          const reset = { reason: replay.reason };
          deliver(stream, { event: "reset", symbol: null, cursor: bus.headCursor(), data: reset });
        }
      }
      streams.add(stream);
      return () => {
        streams.delete(stream);
      };
    },
    size: () => streams.size,
    headCursor: () => bus.headCursor(),
    close: unsubscribe,
  };
}
