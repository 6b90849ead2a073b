import "server-only";
import type {
  CallStartedEvent,
  CallStatusEvent,
  LiveCallStatus,
  ResetEvent,
  SentenceEvent,
} from "@/lib/schemas/live";

/**
 * The live bus: the one path every live event takes inside an instance (docs/architecture.md, "The live bus"). The
 * sequencer publishes; the alert engine, the archive, the metrics and the browsers' fan-out each subscribe once and
 * see every event, in order, with the cursor a browser resumes from. Two implementations: in memory (one
 * instance, `MemoryBus`) and on a Redis Stream shared by every instance (`RedisBus`, server/scale/), where only the
 * leader publishes and every instance delivers what the stream holds.
 *
 * Besides the events, the bus keeps what a reader joining late needs: the state of every call it carries (name,
 * start, status, the sentences so far; `call` gives the first without copying the sentences) and the recent events
 * for replay (`replay`), which the browser fan-out (fanout.ts) uses to resume a stream from `Last-Event-ID`.
 *
 * Cursor format: `<a>-<b>`, two decimal integers, growing within one bus (in memory: the bus's start time and a
 * count; in Redis: the stream id).
 */

export type LivePayload =
  | { event: "call.started"; symbol: string; data: CallStartedEvent }
  | { event: "sentence"; symbol: string; data: SentenceEvent }
  | { event: "call.status"; symbol: string; data: CallStatusEvent };

/** A published event: the payload plus its cursor. `symbol` lets ticker filters match events that do not carry it. */
export type LiveEvent = LivePayload & { cursor: string };

/** What a browser stream may receive: the bus's events, or a `reset` when it cannot resume from its cursor. */
export type StreamEvent = LiveEvent | { event: "reset"; symbol: null; cursor: string; data: ResetEvent };

export type Unsubscribe = () => void;

/** A call the bus carries, without its sentences. */
export interface LiveCall {
  callId: string;
  symbol: string;
  name: string;
  startTime: string;
  status: LiveCallStatus;
}

export interface CallSnapshot extends LiveCall {
  /** Every sentence published so far, by sequence (a copy). */
  sentences: SentenceEvent[];
  /** The bus's cursor when the snapshot was taken: resuming from it yields exactly what follows. */
  cursor: string;
}

/**
 * What followed a cursor: the events (oldest first), `reset` when the bus cannot tell (the cursor is older than what
 * it keeps, from another bus, or malformed), or `ahead` when the cursor is newer than anything this bus has delivered
 * (Redis: written by the leader and read first by another instance): the reader skips up to it.
 */
export type Replay =
  | { kind: "events"; events: readonly LiveEvent[] }
  | { kind: "reset"; reason: ResetEvent["reason"] }
  | { kind: "ahead" };

export interface LiveBus {
  /** Only the sequencer publishes (in Redis, on the leader only). */
  publish(payload: LivePayload): void;
  /** Every event from now on, in order. A throwing listener is reported and does not stop the others. */
  subscribe(listener: (event: LiveEvent) => void): Unsubscribe;
  replay(cursor: string): Replay;
  headCursor(): string;
  call(callId: string): LiveCall | null;
  snapshot(callId: string): CallSnapshot | null;
  /** Calls currently held (live first, then recently finished). */
  calls(): CallSnapshot[];
}

const CURSOR = /^(\d{1,16})-(\d{1,16})$/;

export function isCursor(value: string): boolean {
  return CURSOR.test(value);
}

/** Orders two cursors of one bus (negative: `a` first). */
export function compareCursors(a: string, b: string): number {
  const [am = 0, as = 0] = a.split("-").map(Number);
  const [bm = 0, bs = 0] = b.split("-").map(Number);
  return am !== bm ? am - bm : as - bs;
}

/** Delivers `event` to each listener; one broken listener must not starve the others. */
export function deliverAll<E>(
  listeners: Iterable<(event: E) => void>,
  event: E,
  onError?: (error: unknown) => void,
): void {
  for (const listener of [...listeners]) {
    try {
      listener(event);
    } catch (error) {
      onError?.(error);
    }
  }
}
