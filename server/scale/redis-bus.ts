import "server-only";
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { z } from "zod";
import {
  compareCursors,
  deliverAll,
  isCursor,
  type CallSnapshot,
  type LiveBus,
  type LiveCall,
  type LiveEvent,
  type LivePayload,
  type Replay,
  type Unsubscribe,
} from "../live/bus";
import { CallProjection } from "../live/projection";
import type { StructuredLog } from "../log";
import type { PublishedCallState } from "../live/sequencer";
import { EPOCH_KEY } from "./leader";
import { KEY_PREFIX } from "./redis";

/**
 * The live bus (server/live/bus.ts) on a Redis Stream, shared by every instance (issue 7).
 *
 * - Writing: only the leader publishes, through `fencedAppend` (below): one Lua script checks the writer's fencing
 *   token against `leader:epoch`, appends to the stream (`XADD MAXLEN ~`) and updates the per-call hash the next
 *   leader resumes from, all atomically. A paused old leader's writes are refused (`FENCED`); an append already in
 *   the stream (a command ioredis resent after a reconnect) is skipped.
 * - Reading: every instance tails the stream (XREAD BLOCK on its own connection) into a local mirror of the last
 *   `mirrorCapacity` events and a projection of every call, and delivers each event to its own subscribers (the
 *   alert engine, the archive, the metrics, the browsers' fan-out). So `replay` answers from memory, like the
 *   in-memory bus, and a reader never touches Redis per browser.
 * - Cursor = the stream id (`1700000000000-0`): the same on every instance, so a browser resumes anywhere with
 *   `Last-Event-ID`. A cursor older than the mirror gets `reset`; a cursor a moment ahead of this instance's tail
 *   (written by the leader, read first on another instance) is `ahead`: the fan-out skips up to it.
 * - `publish` returns at once (the stream assigns the id asynchronously); the leader's own subscribers get the
 *   event when its tail reads it back, like everyone else's.
 */

export const STREAM_KEY = `${KEY_PREFIX}events`;
export const CALLS_KEY = `${KEY_PREFIX}calls`;
const FINISHED_RETENTION_MS = 24 * 60 * 60_000;

// Appends are idempotent: ioredis resends a command whose reply a dropped connection lost, and that command may have
// run. KEYS[4] names this one append (the writing bus's id and its count of appends); it is set, with a lifetime
// of ARGV[7] ms, once the entry is in the stream, so the same command run again is skipped (nil reply). A sentence
// is also skipped when its sequence, ARGV[6], is below the call's stored next one: it is in the stream already,
// whoever wrote it.
const FENCED_APPEND = `
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return redis.error_reply('FENCED writer epoch is stale') end
if redis.call('EXISTS', KEYS[4]) == 1 then return false end
if ARGV[4] ~= '' and ARGV[6] ~= '' then
  local stored = redis.call('HGET', KEYS[3], ARGV[4])
  if stored then
    local nextSeq = tonumber(cjson.decode(stored).nextSeq)
    if nextSeq and tonumber(ARGV[6]) < nextSeq then return false end
  end
end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], '*', 'p', ARGV[3], 'f', ARGV[1])
if ARGV[4] ~= '' then
  if ARGV[5] == '' then redis.call('HDEL', KEYS[3], ARGV[4]) else redis.call('HSET', KEYS[3], ARGV[4], ARGV[5]) end
end
redis.call('SET', KEYS[4], '1', 'PX', ARGV[7])
return id`;

/**
 * How long an append's key stays: far longer than ioredis holds a command across a reconnect while this instance
 * still leads (past the leader's lease another instance takes the epoch, and the resent command is fenced anyway).
 */
const APPEND_KEY_TTL_MS = 10 * 60_000;

export type { PublishedCallState };

const publishedCallStateSchema = z.object({
  callId: z.string(),
  symbol: z.string(),
  name: z.string(),
  startTime: z.string(),
  status: z.enum(["live", "completed", "enriched"]),
  nextSeq: z.number().int().nonnegative(),
  lastEndMs: z.number(),
});

/**
 * Entries are written by our own leader; only the envelope is checked, so instances of a slightly different version
 * (a rolling deploy) still pass each other's events through instead of dropping them.
 */
const payloadSchema = z.object({
  event: z.enum(["call.started", "sentence", "call.status"]),
  symbol: z.string(),
  data: z.looseObject({ callId: z.string() }),
});

type StreamEntry = [id: string, fields: string[]];

export interface RedisBusOptions {
  /** Command connection (publishing, reading the call hash). */
  redis: Redis;
  /** A connection of its own for the blocking tail. */
  tail: Redis;
  log: StructuredLog;
  /** `XADD MAXLEN ~` bound of the stream. */
  maxLen?: number;
  /** Events mirrored per instance for resuming. */
  mirrorCapacity?: number;
  blockMs?: number;
  /** The leader could not append (fenced, or Redis failed): it must step down. */
  onPublishFailed?: (error: Error) => void;
  onSubscriberError?: (error: unknown) => void;
}

export class RedisBus implements LiveBus {
  private readonly mirror: LiveEvent[] = [];
  /** Any cursor at or after this id can be served from the mirror. */
  private floor = "0-0";
  private head = "0-0";
  private readonly projection = new CallProjection();
  private readonly listeners = new Set<(event: LiveEvent) => void>();
  private readonly capacity: number;
  private readonly maxLen: number;
  private running = false;
  private tailOk = false;
  private readonly waiters = new Set<{ id: string; resolve: () => void }>();
  /** Leader side: the fencing token and the per-call state written along with each event. */
  private writer: { epoch: number; calls: Map<string, PublishedCallState> } | null = null;
  /** Names each append for its idempotency key: unique to this bus, whatever terms it writes in. */
  private readonly writerId = randomUUID();
  private appends = 0;

  constructor(private readonly options: RedisBusOptions) {
    this.capacity = options.mirrorCapacity ?? 10_000;
    this.maxLen = options.maxLen ?? 100_000;
    options.redis.defineCommand("callroomFencedAppend", { numberOfKeys: 4, lua: FENCED_APPEND });
  }

  /* ------------------------------------------------------------------ reading */

  /** Loads the stream's tail into the mirror, then follows it. Resolves once the initial load is done. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    await this.loadTail();
    void this.follow();
  }

  stop(): void {
    this.running = false;
    this.tailOk = false;
    this.options.tail.disconnect();
  }

  /** Whether this instance is following the stream (for health). */
  get isFollowing(): boolean {
    return this.tailOk;
  }

  private async loadTail(): Promise<void> {
    for (;;) {
      try {
        const entries = (await this.options.redis.xrevrange(
          STREAM_KEY,
          "+",
          "-",
          "COUNT",
          this.capacity + 1,
        )) as StreamEntry[];
        entries.reverse();
        if (entries.length > this.capacity) this.floor = entries.shift()![0];
        for (const entry of entries) this.ingest(entry);
        this.tailOk = true;
        return;
      } catch (error) {
        if (!this.running) return;
        this.options.log.warn({ err: message(error) }, "scale: reading the event stream failed; retrying");
        await sleep(1_000);
      }
    }
  }

  private async follow(): Promise<void> {
    while (this.running) {
      try {
        const result = (await this.options.tail.xread(
          "COUNT",
          1_000,
          "BLOCK",
          this.options.blockMs ?? 2_000,
          "STREAMS",
          STREAM_KEY,
          this.head,
        )) as [string, StreamEntry[]][] | null;
        this.tailOk = true;
        for (const [, entries] of result ?? []) for (const entry of entries) this.ingest(entry);
      } catch (error) {
        if (!this.running) return;
        this.tailOk = false;
        this.options.log.warn({ err: message(error) }, "scale: tailing the event stream failed; retrying");
        await sleep(500);
      }
    }
  }

  private ingest([id, fields]: StreamEntry): void {
    if (compareCursors(id, this.head) <= 0) return;
    this.head = id;
    const raw = fields[fields.indexOf("p") + 1];
    let payload: LivePayload | null = null;
    try {
      const parsed = payloadSchema.safeParse(JSON.parse(raw ?? ""));
      if (parsed.success) payload = parsed.data as LivePayload;
    } catch {
      // Reported below.
    }
    if (payload) {
      this.projection.apply(payload);
      const event = { ...payload, cursor: id } as LiveEvent;
      this.mirror.push(event);
      if (this.mirror.length > this.capacity) this.floor = this.mirror.shift()!.cursor;
      deliverAll(this.listeners, event, this.options.onSubscriberError);
    } else {
      this.options.log.warn({ id }, "scale: dropped an unreadable stream entry");
    }
    for (const w of [...this.waiters]) {
      if (compareCursors(id, w.id) >= 0) {
        this.waiters.delete(w);
        w.resolve();
      }
    }
  }

  /** Resolves once the mirror has read the stream up to `id`. */
  caughtUp(id: string): Promise<void> {
    if (compareCursors(this.head, id) >= 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.add({ id, resolve }));
  }

  subscribe(listener: (event: LiveEvent) => void): Unsubscribe {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  replay(cursor: string): Replay {
    const ms = isCursor(cursor) ? Number(cursor.split("-")[0]) : NaN;
    if (!(ms <= Date.now() + 60_000)) return { kind: "reset", reason: "unknown_cursor" };
    // Written by the leader and already read by the instance that served it, not yet by this one.
    if (compareCursors(cursor, this.head) >= 0) return { kind: "ahead" };
    if (compareCursors(cursor, this.floor) < 0) return { kind: "reset", reason: "cursor_too_old" };
    return { kind: "events", events: this.mirror.slice(this.firstAfter(cursor)) };
  }

  private firstAfter(id: string): number {
    let lo = 0;
    let hi = this.mirror.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareCursors(this.mirror[mid]!.cursor, id) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  call(callId: string): LiveCall | null {
    return this.projection.call(callId);
  }

  snapshot(callId: string): CallSnapshot | null {
    return this.projection.snapshot(callId, this.head);
  }

  calls(): CallSnapshot[] {
    return this.projection.all(this.head);
  }

  headCursor(): string {
    return this.head;
  }

  /* ------------------------------------------------------------------ writing (leader only) */

  /**
   * Becomes the writer for fencing token `epoch`. Returns what was published per call (from the hash written with
   * the stream, so it is exact even for calls whose start fell out of the mirror), for the sequencer to resume from.
   */
  async beginWriting(epoch: number): Promise<PublishedCallState[]> {
    const raw = await this.options.redis.hgetall(CALLS_KEY);
    const calls = new Map<string, PublishedCallState>();
    const expired: string[] = [];
    for (const [field, value] of Object.entries(raw)) {
      try {
        const parsed = publishedCallStateSchema.safeParse(JSON.parse(value));
        if (!parsed.success) continue;
        const c = parsed.data;
        // Finished calls are kept as tombstones (a catch-up listing must not publish them again) for a while.
        if (c.status !== "live" && Date.now() - Date.parse(c.startTime) > FINISHED_RETENTION_MS)
          expired.push(field);
        else calls.set(c.callId, c);
      } catch {
        // An unreadable entry is a call we cannot resume; its sentences come again from REST.
      }
    }
    if (expired.length > 0) await this.options.redis.hdel(CALLS_KEY, ...expired);
    this.writer = { epoch, calls };
    return [...calls.values()];
  }

  endWriting(): void {
    this.writer = null;
  }

  get isWriting(): boolean {
    return this.writer !== null;
  }

  publish(payload: LivePayload): void {
    const writer = this.writer;
    if (!writer) {
      this.options.log.warn({ event: payload.event }, "scale: publish without leadership dropped");
      return;
    }
    const callId = payload.data.callId;
    const state = this.nextCallState(writer.calls, payload);
    if (state) writer.calls.set(callId, state);
    const append = (this.options.redis as unknown as FencedRedis).callroomFencedAppend;
    append
      .call(
        this.options.redis,
        STREAM_KEY,
        EPOCH_KEY,
        CALLS_KEY,
        `${KEY_PREFIX}appended:${this.writerId}:${(this.appends += 1)}`,
        String(writer.epoch),
        String(this.maxLen),
        JSON.stringify(payload),
        state ? callId : "",
        state ? JSON.stringify(state) : "",
        payload.event === "sentence" ? String(payload.data.sequence) : "",
        String(APPEND_KEY_TTL_MS),
      )
      .catch((error: unknown) => {
        if (this.writer !== writer) return;
        this.writer = null;
        const err = error instanceof Error ? error : new Error(String(error));
        this.options.log.error(
          { err: err.message.slice(0, 200) },
          "scale: could not append to the event stream",
        );
        this.options.onPublishFailed?.(err);
      });
  }

  private nextCallState(
    calls: Map<string, PublishedCallState>,
    payload: LivePayload,
  ): PublishedCallState | null {
    const prev = calls.get(payload.data.callId);
    switch (payload.event) {
      case "call.started":
        return {
          callId: payload.data.callId,
          symbol: payload.data.symbol,
          name: payload.data.name,
          startTime: payload.data.startTime,
          status: prev?.status ?? "live",
          nextSeq: prev?.nextSeq ?? 0,
          lastEndMs: prev?.lastEndMs ?? 0,
        };
      case "sentence":
        return prev
          ? {
              ...prev,
              nextSeq: Math.max(prev.nextSeq, payload.data.sequence + 1),
              lastEndMs: payload.data.endMs,
            }
          : null;
      case "call.status":
        return prev ? { ...prev, status: payload.data.status } : null;
    }
  }
}

type FencedRedis = {
  /** The new entry's id, or null when the sentence was already in the stream. */
  callroomFencedAppend: (...args: string[]) => Promise<string | null>;
};

function message(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 200) : String(error);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref?.());
}
