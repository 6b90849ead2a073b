import "server-only";
import type { SentenceEvent } from "@/lib/schemas/live";
import { normalizeCallId } from "@/lib/schemas/live";
import type { CallSnapshot, LiveCall, LivePayload } from "./bus";

/**
 * The state of every call a bus carries, folded from its events: what a reader joining late needs (the call page's
 * merge with REST, the archive's start-up, the metrics' lag). Finished calls are kept for `finishedRetentionMs`, and
 * at most `maxCalls` calls (the oldest finished ones go first).
 */

interface ProjectedCall extends LiveCall {
  sentences: SentenceEvent[];
  /** When the call reached a final state (for eviction). */
  finishedAt: number | null;
}

export interface ProjectionOptions {
  finishedRetentionMs?: number;
  maxCalls?: number;
  now?: () => number;
}

export class CallProjection {
  private readonly calls = new Map<string, ProjectedCall>();
  private readonly finishedRetentionMs: number;
  private readonly maxCalls: number;
  private readonly now: () => number;

  constructor(options: ProjectionOptions = {}) {
    this.now = options.now ?? Date.now;
    this.finishedRetentionMs = options.finishedRetentionMs ?? 30 * 60_000;
    this.maxCalls = options.maxCalls ?? 1_000;
  }

  apply(payload: LivePayload): void {
    const callId = payload.data.callId;
    if (payload.event === "call.started") {
      const existing = this.calls.get(callId);
      if (existing) {
        existing.name = payload.data.name;
        existing.startTime = payload.data.startTime;
      } else {
        this.evict();
        this.calls.set(callId, {
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
    const call = this.calls.get(callId);
    if (!call) return;
    if (payload.event === "sentence") {
      const last = call.sentences.at(-1);
      if (!last || payload.data.sequence > last.sequence) call.sentences.push(payload.data);
      return;
    }
    call.status = payload.data.status;
    call.finishedAt = payload.data.status === "live" ? null : this.now();
  }

  call(callId: string): LiveCall | null {
    const c = this.calls.get(normalizeCallId(callId));
    return c
      ? { callId: c.callId, symbol: c.symbol, name: c.name, startTime: c.startTime, status: c.status }
      : null;
  }

  snapshot(callId: string, cursor: string): CallSnapshot | null {
    const c = this.calls.get(normalizeCallId(callId));
    return c ? toSnapshot(c, cursor) : null;
  }

  /** Live first, then recently finished; newest first within each. */
  all(cursor: string): CallSnapshot[] {
    this.evict();
    const all = [...this.calls.values()].map((c) => toSnapshot(c, cursor));
    const rank = (s: CallSnapshot) => (s.status === "live" ? 0 : 1);
    return all.sort((a, b) => rank(a) - rank(b) || b.startTime.localeCompare(a.startTime));
  }

  private evict(): void {
    const now = this.now();
    for (const [id, c] of this.calls) {
      if (c.finishedAt !== null && now - c.finishedAt > this.finishedRetentionMs) this.calls.delete(id);
    }
    if (this.calls.size < this.maxCalls) return;
    const finished = [...this.calls.values()]
      .filter((c) => c.status !== "live")
      .sort((a, b) => a.startTime.localeCompare(b.startTime));
    for (const c of finished) {
      if (this.calls.size < this.maxCalls) break;
      this.calls.delete(c.callId);
    }
  }
}

function toSnapshot(c: ProjectedCall, cursor: string): CallSnapshot {
  return {
    callId: c.callId,
    symbol: c.symbol,
    name: c.name,
    startTime: c.startTime,
    status: c.status,
    sentences: [...c.sentences],
    cursor,
  };
}
