import "server-only";
import type { LiveCallStatus, SentenceEvent } from "@/lib/schemas/live";
import { liveSentiment } from "@/common/sentiment";
import { Backoff } from "../upstream/stream/backoff";
import type { SentenceFrame } from "../upstream/stream/frames";
import type { StructuredLog } from "../log";
import type { LivePayload } from "./bus";

/**
 * The sequencer: turns the upstream's at-most-once sentence stream (which loses whatever was said while the socket
 * was down, and starts mid-call after a subscription) into an exactly-once, in-order stream of live-bus events, per
 * call.
 *
 * Invariants, per call: sentences are published in `sequence` order, each once (`nextSeq` only grows); a sentence
 * that arrives ahead of `nextSeq` waits in `pending` until the gap is filled from REST (the call's `LIVE`
 * transcript, whose `segment_id` equals the live sequence); nothing is published before `call.started`.
 */

/** What the sequencer needs of one call over REST (`GET /api/v1/transcripts/calls/{id}`), already mapped. */
export interface RestCallView {
  callId: string;
  symbol: string;
  name: string;
  startTime: string;
  status: LiveCallStatus;
  segments: {
    sequence: number;
    speaker: string;
    startMs: number;
    endMs: number;
    text: string;
    confidence: number | null;
  }[];
}

export interface CallFetcher {
  /** The call, or `null` when the upstream does not know it (404). Throws on other failures. */
  fetchCall(callId: string, signal: AbortSignal): Promise<RestCallView | null>;
  /**
   * Page `page` (1-based, default 1; newest first) of the calls of any status that started since `fromIso`: the
   * catch-up after a reconnect. An empty page means there is no more.
   */
  listCallsStartedSince?(
    fromIso: string,
    signal: AbortSignal,
    page?: number,
  ): Promise<{ callId: string; symbol: string }[]>;
}

export interface SequencerOptions {
  publish: (payload: LivePayload) => void;
  fetcher: CallFetcher;
  log: StructuredLog;
  /** Backoff of REST retries (gap filling, failed syncs). */
  syncBackoff?: { baseMs: number; capMs: number };
  /**
   * After this many successful REST reads that still lack the missing sentences, give up on them and move on. Failed
   * reads (5xx, timeouts, the breaker's refusals, 404s) do not count: REST may have the sentences once it is back.
   */
  gapGiveUpAttempts?: number;
  /** Polling for enrichment after completion: first delay, growth factor, ceiling, attempts. */
  enrichPoll?: { firstMs: number; factor: number; capMs: number; maxAttempts: number };
  /** How many finished call ids are remembered so late frames do not resurrect them. */
  tombstones?: number;
  /** Pages of the catch-up listing read after a reconnect, at most (default 20: 2,000 calls at the upstream's 100). */
  catchUpMaxPages?: number;
}

interface PendingSentence {
  source: "socket" | "rest";
  sequence: number;
  text: string;
  speaker: string;
  confidence: number | null;
  /** Offsets from the call start when known (REST); else absolute times (the socket) resolved at publish time. */
  startMs: number | null;
  endMs: number | null;
  startAt: number | null;
  endAt: number | null;
}

interface TrackedCall {
  callId: string;
  symbol: string;
  name: string | null;
  startTime: string | null;
  announced: boolean;
  status: LiveCallStatus;
  nextSeq: number;
  lastEndMs: number;
  pending: Map<number, PendingSentence>;
  /** Sequence of the socket's `COMPLETE` sentence. */
  lastSeq: number | null;
  /** Number of sentences REST reported for a finished call. */
  finalCount: number | null;
  restEnriched: boolean;
  sync: {
    running: boolean;
    again: boolean;
    timer: NodeJS.Timeout | null;
    backoff: Backoff;
    gapAttempts: number;
  };
  enrich: { timer: NodeJS.Timeout | null; attempts: number; running: boolean };
  /** Consecutive 404s: a call the upstream keeps saying it does not know is dropped after a few. */
  notFound: number;
}

const NOT_FOUND_LIMIT = 3;

/** What a new leader needs to resume a call exactly where the previous one stopped (server/scale). */
export interface PublishedCallState {
  callId: string;
  symbol: string;
  name: string;
  startTime: string;
  status: LiveCallStatus;
  /** The next sentence sequence to publish (all before it are in the stream). */
  nextSeq: number;
  lastEndMs: number;
}

export class Sequencer {
  private readonly calls = new Map<string, TrackedCall>();
  private readonly finished = new Map<string, true>();
  private readonly abort = new AbortController();
  private disposed = false;
  private readonly syncBackoff: { baseMs: number; capMs: number };
  private readonly gapGiveUpAttempts: number;
  private readonly enrichPoll: { firstMs: number; factor: number; capMs: number; maxAttempts: number };
  private readonly tombstones: number;
  private readonly catchUpMaxPages: number;
  private readonly counters = { fromSocket: 0, fromRest: 0, syncs: 0, syncFailures: 0, skipped: 0 };

  constructor(private readonly options: SequencerOptions) {
    this.syncBackoff = options.syncBackoff ?? { baseMs: 1_000, capMs: 30_000 };
    this.gapGiveUpAttempts = options.gapGiveUpAttempts ?? 10;
    this.enrichPoll = options.enrichPoll ?? { firstMs: 5_000, factor: 1.5, capMs: 60_000, maxAttempts: 60 };
    this.tombstones = options.tombstones ?? 2_000;
    this.catchUpMaxPages = options.catchUpMaxPages ?? 20;
  }

  /** Sentences published by origin, REST reads, and sentences given up on (diagnostics and tests). */
  stats(): { fromSocket: number; fromRest: number; syncs: number; syncFailures: number; skipped: number } {
    return { ...this.counters };
  }

  /** Calls being tracked (not yet enriched), for health and tests. */
  trackedCallIds(): string[] {
    return [...this.calls.keys()];
  }

  // ---- inputs -------------------------------------------------------------------------------------------------

  /** The socket announced a call's audio: the call started (or was already live when we subscribed). */
  onAudio(callId: string, symbol: string): void {
    this.track(callId, symbol);
  }

  onSentence(frame: SentenceFrame): void {
    const call = this.track(frame.callId, frame.symbol);
    if (!call) return;
    if (frame.name && !call.name) call.name = frame.name;
    // After completion nothing more belongs to the call; a stray frame must not extend it.
    if (call.status !== "live") return;
    if (frame.isLast) call.lastSeq = frame.sequence;
    if (frame.sequence >= call.nextSeq && !call.pending.has(frame.sequence)) {
      call.pending.set(frame.sequence, {
        source: "socket",
        sequence: frame.sequence,
        text: frame.text,
        speaker: frame.speaker,
        confidence: frame.confidence,
        startMs: null,
        endMs: null,
        startAt: frame.startAt,
        endAt: frame.endAt,
      });
    }
    this.flush(call);
  }

  /** The upstream's list of live calls (after every (re)connect). Unknown ones are tracked; known live ones synced. */
  onLiveList(
    calls: { callId: string; symbol: string; name: string | null; startTime: string | null }[],
  ): void {
    const listed = new Set<string>();
    for (const c of calls) {
      listed.add(c.callId);
      const call = this.track(c.callId, c.symbol);
      if (!call) continue;
      if (c.name && !call.name) call.name = c.name;
      if (c.startTime && !call.startTime && Number.isFinite(Date.parse(c.startTime)))
        call.startTime = c.startTime;
      this.flush(call);
    }
    // A live call missing from the list ended while we were away: REST has its last sentences and final status.
    for (const call of this.calls.values()) {
      if (!listed.has(call.callId) && call.status === "live") this.requestSync(call);
    }
  }

  /**
   * The socket came back after a drop: whatever was said meanwhile is only in REST. With `downSinceMs`, calls
   * that started while we were away (some may have ended already, so the socket's live list misses them) are
   * looked up too.
   */
  onReconnected(downSinceMs?: number): void {
    for (const call of this.calls.values()) {
      if (call.status === "live") this.requestSync(call);
    }
    if (downSinceMs === undefined || !this.options.fetcher.listCallsStartedSince) return;
    // A margin for clock skew and for a call announced just before the drop but never seen.
    const fromIso = new Date(downSinceMs - 60_000).toISOString();
    this.catchUp(fromIso).catch((error: unknown) => {
      if (!this.disposed) {
        this.options.log.warn({ err: errorMessage(error) }, "live: catch-up list after reconnect failed");
      }
    });
  }

  /**
   * Tracks every call the listing names, page by page, up to `catchUpMaxPages`. Newest first, so a call starting
   * meanwhile shifts the rest down a place: a repeat on the next page, never a miss. A page with no call not seen
   * before ends it too (an upstream that ignores the page number would otherwise be read to the bound).
   */
  private async catchUp(fromIso: string): Promise<void> {
    const list = this.options.fetcher.listCallsStartedSince!;
    const seen = new Set<string>();
    for (let page = 1; page <= this.catchUpMaxPages; page += 1) {
      const calls = await list.call(this.options.fetcher, fromIso, this.abort.signal, page);
      if (this.disposed) return;
      let fresh = 0;
      for (const c of calls) {
        if (seen.has(c.callId)) continue;
        seen.add(c.callId);
        fresh += 1;
        if (!this.calls.has(c.callId)) this.track(c.callId, c.symbol);
      }
      if (fresh === 0) return;
    }
    this.options.log.warn(
      { fromIso, pages: this.catchUpMaxPages, calls: seen.size },
      "live: catch-up after reconnect stopped at its page bound; older calls started while away are not looked up (live ones still come with the live list)",
    );
  }

  /**
   * Resumes a call another process already published up to `nextSeq` (scale-out failover, server/scale): nothing
   * before `nextSeq` is published again, and a REST sync fills whatever was said since. `enriched` only tombstones it.
   */
  seed(c: PublishedCallState): void {
    if (this.disposed || this.calls.has(c.callId) || this.finished.has(c.callId)) return;
    if (c.status === "enriched") {
      this.finished.set(c.callId, true);
      return;
    }
    const call = this.track(c.callId, c.symbol);
    if (!call) return;
    call.name = c.name;
    call.startTime = c.startTime;
    call.announced = true;
    call.status = c.status;
    call.nextSeq = c.nextSeq;
    call.lastEndMs = c.lastEndMs;
  }

  dispose(): void {
    this.disposed = true;
    this.abort.abort();
    for (const call of this.calls.values()) this.clearTimers(call);
    this.calls.clear();
  }

  // ---- tracking -----------------------------------------------------------------------------------------------

  private track(callId: string, symbol: string): TrackedCall | null {
    if (this.disposed || this.finished.has(callId)) return null;
    let call = this.calls.get(callId);
    if (!call) {
      call = {
        callId,
        symbol,
        name: null,
        startTime: null,
        announced: false,
        status: "live",
        nextSeq: 0,
        lastEndMs: 0,
        pending: new Map(),
        lastSeq: null,
        finalCount: null,
        restEnriched: false,
        sync: {
          running: false,
          again: false,
          timer: null,
          backoff: new Backoff(this.syncBackoff),
          gapAttempts: 0,
        },
        enrich: { timer: null, attempts: 0, running: false },
        notFound: 0,
      };
      this.calls.set(callId, call);
      this.options.log.info({ callId, symbol }, "live: tracking call");
      // One REST read per call on first sight: it names the call, dates its start (needed to turn the socket's
      // absolute times into offsets) and holds whatever was said before we saw it.
      this.requestSync(call);
    }
    return call;
  }

  private forget(call: TrackedCall): void {
    this.clearTimers(call);
    this.calls.delete(call.callId);
    this.finished.set(call.callId, true);
    if (this.finished.size > this.tombstones) {
      const oldest = this.finished.keys().next().value;
      if (oldest !== undefined) this.finished.delete(oldest);
    }
  }

  private clearTimers(call: TrackedCall): void {
    if (call.sync.timer) clearTimeout(call.sync.timer);
    if (call.enrich.timer) clearTimeout(call.enrich.timer);
    call.sync.timer = null;
    call.enrich.timer = null;
  }

  // ---- publishing ---------------------------------------------------------------------------------------------

  private setStatus(call: TrackedCall, status: LiveCallStatus): void {
    if (call.status === status) return;
    call.status = status;
    this.options.publish({
      event: "call.status",
      symbol: call.symbol,
      data: { callId: call.callId, status },
    });
  }

  private flush(call: TrackedCall): void {
    if (this.disposed) return;
    if (!call.announced) {
      if (!call.name || !call.startTime) return;
      call.announced = true;
      this.options.publish({
        event: "call.started",
        symbol: call.symbol,
        data: { callId: call.callId, symbol: call.symbol, name: call.name, startTime: call.startTime },
      });
      this.options.publish({
        event: "call.status",
        symbol: call.symbol,
        data: { callId: call.callId, status: "live" },
      });
    }
    const startEpoch = Date.parse(call.startTime!);
    for (let p = call.pending.get(call.nextSeq); p; p = call.pending.get(call.nextSeq)) {
      call.pending.delete(p.sequence);
      if (p.source === "socket") this.counters.fromSocket += 1;
      else this.counters.fromRest += 1;
      this.options.publish({
        event: "sentence",
        symbol: call.symbol,
        data: this.toEvent(call, p, startEpoch),
      });
      call.nextSeq += 1;
      call.sync.gapAttempts = 0;
    }

    const complete =
      (call.lastSeq !== null && call.nextSeq > call.lastSeq) ||
      (call.finalCount !== null && call.nextSeq >= call.finalCount);
    if (complete && call.status === "live") {
      this.setStatus(call, "completed");
      call.pending.clear();
    }
    if (call.status === "completed") {
      if (call.restEnriched) this.finishEnriched(call);
      else this.scheduleEnrichPoll(call);
      return;
    }
    if (call.pending.size > 0) this.requestSync(call);
  }

  private toEvent(call: TrackedCall, p: PendingSentence, startEpoch: number): SentenceEvent {
    let startMs = p.startMs ?? (p.startAt !== null ? p.startAt - startEpoch : null);
    let endMs = p.endMs ?? (p.endAt !== null ? p.endAt - startEpoch : null);
    // A socket frame without parseable times still gets a plausible place on the timeline.
    startMs =
      startMs !== null && Number.isFinite(startMs) ? Math.max(0, Math.round(startMs)) : call.lastEndMs;
    endMs = endMs !== null && Number.isFinite(endMs) ? Math.max(startMs, Math.round(endMs)) : startMs;
    call.lastEndMs = endMs;
    return {
      callId: call.callId,
      sequence: p.sequence,
      text: p.text,
      speaker: p.speaker,
      startMs,
      endMs,
      confidence: p.confidence,
      // Synchronous and cheap (microseconds): the upstream scores only at enrichment, the stream moves now.
      sentiment: liveSentiment(p.text),
    };
  }

  private finishEnriched(call: TrackedCall): void {
    this.setStatus(call, "enriched");
    this.forget(call);
  }

  // ---- REST sync ----------------------------------------------------------------------------------------------

  /** Single-flight per call: a request while a sync runs makes it run once more afterwards. */
  private requestSync(call: TrackedCall, delayMs = 0): void {
    if (this.disposed || !this.calls.has(call.callId)) return;
    if (call.sync.running) {
      call.sync.again = true;
      return;
    }
    if (call.sync.timer) {
      if (delayMs > 0) return;
      clearTimeout(call.sync.timer);
      call.sync.timer = null;
    }
    if (delayMs > 0) {
      call.sync.timer = setTimeout(() => {
        call.sync.timer = null;
        void this.runSync(call);
      }, delayMs);
      call.sync.timer.unref?.();
      return;
    }
    void this.runSync(call);
  }

  private async runSync(call: TrackedCall): Promise<void> {
    if (this.disposed || !this.calls.has(call.callId)) return;
    call.sync.running = true;
    call.sync.again = false;
    const hadGap = call.pending.size > 0 && !call.pending.has(call.nextSeq);
    const before = call.nextSeq;
    let failed = false;
    this.counters.syncs += 1;
    try {
      const view = await this.options.fetcher.fetchCall(call.callId, this.abort.signal);
      if (this.disposed) return;
      if (view) {
        call.notFound = 0;
        this.merge(call, view);
      } else {
        call.notFound += 1;
        failed = true;
        if (call.notFound >= NOT_FOUND_LIMIT) {
          this.options.log.warn(
            { callId: call.callId },
            "live: upstream does not know this call; dropping it",
          );
          call.sync.running = false;
          this.forget(call);
          return;
        }
      }
    } catch (error) {
      if (this.disposed) return;
      failed = true;
      this.counters.syncFailures += 1;
      this.options.log.warn({ callId: call.callId, err: errorMessage(error) }, "live: call sync failed");
    }
    call.sync.running = false;
    if (!this.calls.has(call.callId)) return;

    const gapRemains = call.pending.size > 0 && !call.pending.has(call.nextSeq);
    const unnamed = !call.announced;
    if (!failed && !gapRemains && !unnamed) {
      call.sync.backoff.reset();
      if (call.sync.again && call.status === "live") this.requestSync(call);
      return;
    }
    if (!failed && gapRemains && hadGap && call.nextSeq === before) {
      call.sync.gapAttempts += 1;
      if (call.sync.gapAttempts >= this.gapGiveUpAttempts) {
        this.skipGap(call);
        return;
      }
    }
    // REST may simply lag the socket by a moment: retry soon, then back off.
    this.requestSync(call, Math.max(50, call.sync.backoff.next()));
  }

  private merge(call: TrackedCall, view: RestCallView): void {
    call.symbol = view.symbol || call.symbol;
    call.name = view.name || call.name;
    if (Number.isFinite(Date.parse(view.startTime))) call.startTime = view.startTime;
    for (const s of view.segments) {
      if (s.sequence < call.nextSeq || call.pending.has(s.sequence)) continue;
      call.pending.set(s.sequence, {
        source: "rest",
        sequence: s.sequence,
        text: s.text,
        speaker: s.speaker,
        confidence: s.confidence,
        startMs: s.startMs,
        endMs: s.endMs,
        startAt: null,
        endAt: null,
      });
    }
    if (view.status !== "live") {
      const maxSeq = view.segments.reduce((m, s) => Math.max(m, s.sequence), -1);
      call.finalCount = maxSeq + 1;
      call.restEnriched = view.status === "enriched";
    }
    this.flush(call);
  }

  /** Last resort when REST never yields the missing sentences: move on rather than stall the call forever. */
  private skipGap(call: TrackedCall): void {
    const next = Math.min(...call.pending.keys());
    this.counters.skipped += next - call.nextSeq;
    this.options.log.error(
      { callId: call.callId, missingFrom: call.nextSeq, missingTo: next - 1 },
      "live: sentences missing from both the socket and REST; skipping them",
    );
    call.nextSeq = next;
    call.sync.gapAttempts = 0;
    this.flush(call);
  }

  // ---- enrichment ---------------------------------------------------------------------------------------------

  private scheduleEnrichPoll(call: TrackedCall): void {
    if (call.enrich.timer || call.enrich.running || this.disposed) return;
    const { firstMs, factor, capMs, maxAttempts } = this.enrichPoll;
    if (call.enrich.attempts >= maxAttempts) {
      this.options.log.warn({ callId: call.callId }, "live: call not enriched in time; no longer polling");
      this.forget(call);
      return;
    }
    const delay = Math.min(capMs, firstMs * factor ** call.enrich.attempts);
    call.enrich.timer = setTimeout(() => {
      call.enrich.timer = null;
      void this.pollEnrichment(call);
    }, delay);
    call.enrich.timer.unref?.();
  }

  private async pollEnrichment(call: TrackedCall): Promise<void> {
    if (this.disposed || !this.calls.has(call.callId)) return;
    call.enrich.attempts += 1;
    call.enrich.running = true;
    try {
      const view = await this.options.fetcher.fetchCall(call.callId, this.abort.signal);
      if (view?.status === "enriched") call.restEnriched = true;
    } catch (error) {
      if (this.disposed) return;
      this.options.log.debug(
        { callId: call.callId, err: errorMessage(error) },
        "live: enrichment poll failed",
      );
    } finally {
      call.enrich.running = false;
    }
    if (!this.calls.has(call.callId)) return;
    if (call.restEnriched) this.finishEnriched(call);
    else this.scheduleEnrichPoll(call);
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
