import "server-only";
import type {
  CallStartedEvent,
  CallStatusEvent,
  LiveCallStatus,
  ResetEvent,
  SentenceEvent,
} from "@/lib/schemas/live";
import { normalizeCallId } from "@/lib/schemas/live";
import { ReplayBuffer } from "./replay-buffer";

/**
 * The hub: fan-out of live events to SSE clients, the replay log they resume from, and the projection of every live
 * call's state (for `GET /api/calls/[callId]`). Everything goes through the small `LiveHub` interface so a Redis
 * implementation (shared by several app instances) can replace the in-memory one without touching producers
 * (the relay) or consumers (the SSE route).
 *
 * Cursor format: `<epoch>-<n>` (like a Redis stream id), where `epoch` identifies this hub instance (its start time
 * in ms) and `n` counts events 1, 2, 3, …; cursors grow monotonically within an epoch. A cursor from another epoch
 * (the server restarted) or older than the replay buffer gets a `reset` event: the client must refetch.
 */

export type LivePayload =
  | { event: "call.started"; symbol: string; data: CallStartedEvent }
  | { event: "sentence"; symbol: string; data: SentenceEvent }
  | { event: "call.status"; symbol: string; data: CallStatusEvent };

/** A published event: the payload plus its cursor. `symbol` lets ticker filters match events that do not carry it. */
export type HubEvent = LivePayload & { cursor: string };

export type DeliveredEvent = HubEvent | { event: "reset"; symbol: null; cursor: string; data: ResetEvent };

export interface StreamFilter {
  /** `"*"` = every call; otherwise upper-case tickers. */
  tickers: "*" | readonly string[];
  /** Lower-case call ids. */
  calls: readonly string[];
}

export interface CallSnapshot {
  callId: string;
  symbol: string;
  name: string;
  startTime: string;
  status: LiveCallStatus;
  /** Every sentence published so far, by sequence. */
  sentences: SentenceEvent[];
  /** The hub's cursor when the snapshot was taken: resuming from it yields exactly what follows. */
  cursor: string;
}

export type Unsubscribe = () => void;

export interface LiveHub {
  publish(payload: LivePayload): HubEvent;
  /**
   * Delivers events matching `filter`. With `fromCursor`, first replays (synchronously, before returning) what
   * followed that cursor, or a single `reset` when it cannot; then live events as they are published.
   */
  subscribe(
    filter: StreamFilter,
    fromCursor: string | null,
    onEvent: (event: DeliveredEvent) => void,
  ): Unsubscribe;
  snapshot(callId: string): CallSnapshot | null;
  /** Calls currently held (live first, then recently finished). */
  calls(): CallSnapshot[];
  headCursor(): string;
  subscriberCount(): number;
}

/** `upperSymbol`: the event's symbol already upper-cased (publish does it once for all subscribers). */
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

interface CallProjection {
  callId: string;
  symbol: string;
  name: string;
  startTime: string;
  status: LiveCallStatus;
  sentences: SentenceEvent[];
  /** When the call reached a final state (for eviction). */
  finishedAt: number | null;
}

interface Subscriber {
  filter: StreamFilter;
  onEvent: (event: DeliveredEvent) => void;
}

export interface InMemoryHubOptions {
  /** Events held for resuming. */
  replayCapacity?: number;
  /** How long a finished (enriched) call stays in the projection. */
  finishedRetentionMs?: number;
  /** Hard cap on projected calls; the oldest finished ones go first. */
  maxCalls?: number;
  now?: () => number;
  onSubscriberError?: (error: unknown) => void;
}

export class InMemoryHub implements LiveHub {
  private readonly epoch: string;
  private readonly buffer: ReplayBuffer<HubEvent>;
  private readonly subscribers = new Set<Subscriber>();
  private readonly projections = new Map<string, CallProjection>();
  private readonly finishedRetentionMs: number;
  private readonly maxCalls: number;
  private readonly now: () => number;

  constructor(private readonly options: InMemoryHubOptions = {}) {
    this.now = options.now ?? Date.now;
    this.epoch = String(this.now());
    this.buffer = new ReplayBuffer<HubEvent>(options.replayCapacity ?? 10_000);
    this.finishedRetentionMs = options.finishedRetentionMs ?? 30 * 60_000;
    this.maxCalls = options.maxCalls ?? 1_000;
  }

  private cursorOf(seq: number): string {
    return `${this.epoch}-${seq}`;
  }

  /** The sequence a cursor stands for; `null` when it is malformed or from another epoch. */
  private parseCursor(cursor: string): number | null {
    const m = /^(\d{1,16})-(\d{1,16})$/.exec(cursor);
    if (!m || m[1] !== this.epoch) return null;
    return Number(m[2]);
  }

  headCursor(): string {
    return this.cursorOf(this.buffer.head);
  }

  subscriberCount(): number {
    return this.subscribers.size;
  }

  publish(payload: LivePayload): HubEvent {
    this.project(payload);
    // The cursor is the ring's next sequence; pushing a placeholder first would double-write, so compute it.
    const seq = this.buffer.head + 1;
    const event = { ...payload, cursor: this.cursorOf(seq) } as HubEvent;
    this.buffer.push(event);
    const upperSymbol = event.symbol.toUpperCase();
    for (const sub of [...this.subscribers]) {
      if (!this.subscribers.has(sub) || !matchesFilter(sub.filter, event, upperSymbol)) continue;
      this.deliver(sub, event);
    }
    return event;
  }

  private deliver(sub: Subscriber, event: DeliveredEvent): void {
    try {
      sub.onEvent(event);
    } catch (error) {
      // One broken consumer must not starve the others.
      this.options.onSubscriberError?.(error);
    }
  }

  subscribe(
    filter: StreamFilter,
    fromCursor: string | null,
    onEvent: (event: DeliveredEvent) => void,
  ): Unsubscribe {
    const sub: Subscriber = { filter, onEvent };
    if (fromCursor !== null) {
      const seq = this.parseCursor(fromCursor);
      const replay = seq === null ? null : this.buffer.since(seq);
      if (replay?.ok) {
        for (const { item } of replay.items) if (matchesFilter(filter, item)) this.deliver(sub, item);
      } else {
        const reason = replay && replay.reason === "too_old" ? "cursor_too_old" : "unknown_cursor";
        this.deliver(sub, { event: "reset", symbol: null, cursor: this.headCursor(), data: { reason } });
      }
    }
    this.subscribers.add(sub);
    return () => {
      this.subscribers.delete(sub);
    };
  }

  snapshot(callId: string): CallSnapshot | null {
    const p = this.projections.get(normalizeCallId(callId));
    return p ? this.toSnapshot(p) : null;
  }

  calls(): CallSnapshot[] {
    this.evict();
    const all = [...this.projections.values()].map((p) => this.toSnapshot(p));
    const rank = (s: CallSnapshot) => (s.status === "live" ? 0 : 1);
    return all.sort((a, b) => rank(a) - rank(b) || b.startTime.localeCompare(a.startTime));
  }

  private toSnapshot(p: CallProjection): CallSnapshot {
    return {
      callId: p.callId,
      symbol: p.symbol,
      name: p.name,
      startTime: p.startTime,
      status: p.status,
      sentences: [...p.sentences],
      cursor: this.headCursor(),
    };
  }

  private project(payload: LivePayload): void {
    const callId = payload.data.callId;
    if (payload.event === "call.started") {
      const existing = this.projections.get(callId);
      if (existing) {
        existing.name = payload.data.name;
        existing.startTime = payload.data.startTime;
      } else {
        this.evict();
        this.projections.set(callId, {
          callId,
          symbol: payload.data.symbol,
          name: payload.data.name,
          startTime: payload.data.startTime,
          status: "live",
          sentences: [],
          finishedAt: null,
        });
      }
      return;
    }
    const p = this.projections.get(callId);
    if (!p) return;
    if (payload.event === "sentence") {
      const last = p.sentences.at(-1);
      if (!last || payload.data.sequence > last.sequence) p.sentences.push(payload.data);
      return;
    }
    p.status = payload.data.status;
    p.finishedAt = payload.data.status === "live" ? null : this.now();
  }

  private evict(): void {
    const now = this.now();
    for (const [id, p] of this.projections) {
      if (p.finishedAt !== null && now - p.finishedAt > this.finishedRetentionMs) this.projections.delete(id);
    }
    if (this.projections.size < this.maxCalls) return;
    const finished = [...this.projections.values()]
      .filter((p) => p.status !== "live")
      .sort((a, b) => a.startTime.localeCompare(b.startTime));
    for (const p of finished) {
      if (this.projections.size < this.maxCalls) break;
      this.projections.delete(p.callId);
    }
  }
}
