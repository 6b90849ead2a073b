import "server-only";
import {
  deliverAll,
  type CallSnapshot,
  type LiveBus,
  type LiveCall,
  type LiveEvent,
  type LivePayload,
  type Replay,
  type Unsubscribe,
} from "./bus";
import { CallProjection, type ProjectionOptions } from "./projection";
import { ReplayBuffer } from "./replay-buffer";

/**
 * The live bus of a single instance (bus.ts). Cursors are `<epoch>-<n>`: `epoch` is the bus's start time in ms and
 * `n` counts events 1, 2, 3, …; a cursor of another epoch (the server restarted) or older than the replay buffer
 * cannot be resumed from.
 */

export interface MemoryBusOptions extends ProjectionOptions {
  /** Events held for resuming. */
  replayCapacity?: number;
  onSubscriberError?: (error: unknown) => void;
}

export class MemoryBus implements LiveBus {
  private readonly epoch: string;
  private readonly buffer: ReplayBuffer<LiveEvent>;
  private readonly listeners = new Set<(event: LiveEvent) => void>();
  private readonly projection: CallProjection;

  constructor(private readonly options: MemoryBusOptions = {}) {
    this.epoch = String((options.now ?? Date.now)());
    this.buffer = new ReplayBuffer<LiveEvent>(options.replayCapacity ?? 10_000);
    this.projection = new CallProjection(options);
  }

  private cursorOf(seq: number): string {
    return `${this.epoch}-${seq}`;
  }

  headCursor(): string {
    return this.cursorOf(this.buffer.head);
  }

  publish(payload: LivePayload): void {
    this.projection.apply(payload);
    const event = { ...payload, cursor: this.cursorOf(this.buffer.head + 1) } as LiveEvent;
    this.buffer.push(event);
    deliverAll(this.listeners, event, this.options.onSubscriberError);
  }

  subscribe(listener: (event: LiveEvent) => void): Unsubscribe {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  replay(cursor: string): Replay {
    const m = /^(\d{1,16})-(\d{1,16})$/.exec(cursor);
    if (!m || m[1] !== this.epoch) return { kind: "reset", reason: "unknown_cursor" };
    const since = this.buffer.since(Number(m[2]));
    if (since.ok) return { kind: "events", events: since.items.map((i) => i.item) };
    // A cursor past the head was never issued by this bus.
    return { kind: "reset", reason: since.reason === "too_old" ? "cursor_too_old" : "unknown_cursor" };
  }

  call(callId: string): LiveCall | null {
    return this.projection.call(callId);
  }

  snapshot(callId: string): CallSnapshot | null {
    return this.projection.snapshot(callId, this.headCursor());
  }

  calls(): CallSnapshot[] {
    return this.projection.all(this.headCursor());
  }
}
