/**
 * Every call the service knows: live runs (scheduled, control-API and release calls, kept in memory as they
 * happen) and historical calls (one per past earnings record of the calendar's window, 400 days back, docs/upstream.md §7),
 * built on demand.
 *
 * Historical calls in two tiers, so that listing and reading never synthesize speech (issue 15: a call builds in
 * under 50 ms):
 * 1. metadata, script, timed transcript and enrichment: pure computation from the script (the timeline is planned,
 *    see planned-timeline.ts), milliseconds; the planned length of every call is kept (a number per call) so
 *    listing hundreds of calls costs one script each, once;
 * 2. the audio (HLS + MP3): the script spoken by the speech engine, each sentence placed at its planned start,
 *    built in the background when a media link or `audio=true` asks for it, kept for the `EMBEDDED_AUDIO_CACHE`
 *    most recent calls; its playlist grows while it builds, like a live one.
 * A historical call starts after its record's release (`callStartOf`) and lasts its planned length. When the
 * release happens while the service runs, the call is live first (a `release` run with the same `call_id` and
 * script); that run answers for the call as long as it is kept.
 */
import { LRUCache } from "lru-cache";
import { easternToUtcMs } from "../../common/time/eastern";
import { adjacentRecords, type AdjacentRecord } from "../universe/adjacent-records";
import type { Company, Universe } from "../universe/types";
import type { WireEarningsRecord } from "../universe/wire";
import type { CallAudioTrack, SpeechEngine } from "./audio/types";
import {
  CallRuntime,
  type CallCompany,
  type CallInfo,
  type CallKind,
  type CallRecord,
  type SpokenSentence,
} from "./call";
import type { Enricher, EnrichmentInput, EnrichmentResult } from "./enrichment/types";
import { historicalCallId } from "./ids";
import { planTimeline, type PlannedTimeline } from "./planned-timeline";
import { generateScript } from "./script/generate";
import type { CallScript, ScriptInput } from "./script/types";

const LIVE_KEEP = 300;
const SCRIPT_CACHE = 200;
/** Full enrichments (inputs with every segment) are only needed to show or print one call. */
const ENRICHMENT_CACHE = 50;

export interface StoreDeps {
  universe: Universe;
  speech: () => Promise<SpeechEngine>;
  createTrack: () => CallAudioTrack;
  enricher: Enricher;
  now: () => number;
  enrichDelayMs: number;
  historyCallSeconds: number;
  audioCacheSize: number;
  /** The script generator; `generateScript` by default (a test of many dates memoises it by its input). */
  generate?: (input: ScriptInput) => CallScript;
}

/** A past record's call as the universe gives it: enough to generate its script. */
export interface HistoryCall {
  callId: string;
  kind: "historical";
  company: Company;
  record: WireEarningsRecord;
  nextRecord?: WireEarningsRecord;
  previousRecord?: WireEarningsRecord;
  startTime: Date;
}

/** A historical call as listed: its planned length and title too (cheap, kept for every call). */
export interface HistoryEntry extends HistoryCall {
  plannedSeconds: number;
  title: string;
  live: null;
}

/** A live run (scheduled, control-API, release or replayed call), while it is live and after. */
export interface LiveEntry {
  callId: string;
  kind: CallKind;
  company: CallCompany;
  record: CallRecord;
  startTime: Date;
  plannedSeconds: number;
  title: string;
  /** The runtime that is (or was) live. */
  live: CallRuntime;
}

/** What every view needs; cheap for historical calls. */
export type CallEntry = HistoryEntry | LiveEntry;

/** The transcript a call object shows: a runtime's, or a historical call's planned one. */
export interface TranscriptView {
  readonly sentences: readonly SpokenSentence[];
  readonly endTime: Date | null;
}

export interface TextEnrichment {
  input: EnrichmentInput;
  result: EnrichmentResult;
  enrichedAt: Date;
}

/** What a listing shows of an enrichment (summary, participants): a few hundred bytes, kept for every call. */
export interface EnrichmentDigest {
  result: Pick<EnrichmentResult, "summaryLines" | "overallSentiment" | "participants">;
  enrichedAt: Date;
}

/** When a record's results are out: its date and time in New York (16:30 when the time is not known). */
export function releaseTimeOf(record: Pick<WireEarningsRecord, "date" | "time">): Date {
  const ms = easternToUtcMs(record.date, record.time || "16:30:00");
  if (ms === null) throw new Error(`bad report time ${record.date} ${record.time}`);
  return new Date(ms);
}

const HALF_HOUR_MS = 30 * 60_000;

/**
 * When a record's call starts: after its results are out, as companies schedule them. A release before the open
 * (BMO, before noon Eastern) is followed by a call at the first half hour at least 85 minutes later (07:00 → 08:30),
 * one after the close (AMC) at the first half hour at least 25 minutes later (16:05 → 16:30). Half hours in UTC
 * are half hours in New York.
 */
export function callStartOf(record: Pick<WireEarningsRecord, "date" | "time">): Date {
  const releaseMs = releaseTimeOf(record).getTime();
  const hour = Number((record.time || "16:30").slice(0, 2));
  const earliest = releaseMs + (hour < 12 ? 85 : 25) * 60_000;
  return new Date(Math.ceil(earliest / HALF_HOUR_MS) * HALF_HOUR_MS);
}

const hasActuals = (r: WireEarningsRecord) => r.eps !== "" || r.revenue !== "";

interface Meta {
  plannedSeconds: number;
  title: string;
}

export class CallStore {
  private readonly liveRuns = new Map<string, CallRuntime>();
  private closed = false;
  private readonly scripts = new LRUCache<string, CallScript>({ max: SCRIPT_CACHE });
  private readonly textEnrichments = new LRUCache<string, TextEnrichment>({ max: ENRICHMENT_CACHE });
  private readonly digests = new Map<string, EnrichmentDigest>();
  /** A few numbers per call, kept for good: listing must not regenerate every script every minute. */
  private readonly meta = new Map<string, Meta>();
  private readonly audio: LRUCache<string, CallRuntime>;
  private readonly inflight = new Map<string, Promise<CallRuntime>>();
  private historyMemo: { minute: number; entries: HistoryEntry[]; byId: Map<string, HistoryEntry> } | null =
    null;

  private readonly adjacent: AdjacentRecord;

  constructor(private readonly deps: StoreDeps) {
    this.adjacent = adjacentRecords(deps.universe);
    this.audio = new LRUCache<string, CallRuntime>({
      max: deps.audioCacheSize,
      dispose: (runtime) => runtime.dispose(),
    });
  }

  // ---------- live runs

  addLive(runtime: CallRuntime): void {
    // A call whose start was waiting for the speech engine when shutdown began: it is disposed like the others,
    // so the speech the closing engine cuts short is not reported as a failure.
    if (this.closed) {
      runtime.dispose();
      return;
    }
    this.liveRuns.set(runtime.callId, runtime);
    runtime.on("completed", () => this.trimLive());
  }

  liveRuntimes(): CallRuntime[] {
    return [...this.liveRuns.values()];
  }

  hasLive(callId: string): boolean {
    return this.liveRuns.has(callId);
  }

  /** Keeps memory bounded over days of uptime: old runs lose their audio first, then themselves. */
  private trimLive(): void {
    const completed = [...this.liveRuns.values()].filter((r) => r.status === "COMPLETED");
    completed
      .slice(0, Math.max(0, completed.length - this.deps.audioCacheSize))
      .forEach((r) => r.releaseAudio());
    for (const old of completed.slice(0, Math.max(0, completed.length - LIVE_KEEP))) {
      old.dispose();
      this.liveRuns.delete(old.callId);
    }
  }

  // ---------- records around a record

  /** The company's record `step` reports before (−1) or after (+1) this one, inside the window or not. */
  adjacentRecordOf(record: WireEarningsRecord, step: -1 | 1, nowMs: number): WireEarningsRecord | undefined {
    return this.adjacent(record, step, nowMs);
  }

  /** Each record with the company's next and previous ones (from the window when there, else the universe's). */
  private neighbours(records: readonly WireEarningsRecord[], nowMs: number) {
    const nextOf = new Map<WireEarningsRecord, WireEarningsRecord>();
    const previousOf = new Map<WireEarningsRecord, WireEarningsRecord>();
    const lastByTicker = new Map<string, WireEarningsRecord>();
    for (const record of records) {
      const previous = lastByTicker.get(record.ticker);
      if (previous) {
        nextOf.set(previous, record);
        previousOf.set(record, previous);
      }
      lastByTicker.set(record.ticker, record);
    }
    return {
      next: (r: WireEarningsRecord) => nextOf.get(r) ?? this.adjacentRecordOf(r, 1, nowMs),
      previous: (r: WireEarningsRecord) => previousOf.get(r) ?? this.adjacentRecordOf(r, -1, nowMs),
    };
  }

  // ---------- historical calls

  scriptFor(entry: HistoryCall): CallScript {
    const cached = this.scripts.get(entry.callId);
    if (cached) return cached;
    const script = (this.deps.generate ?? generateScript)({
      callId: entry.callId,
      company: entry.company,
      record: entry.record,
      nextRecord: entry.nextRecord,
      previousRecord: entry.previousRecord,
      startTime: entry.startTime,
      targetSeconds: this.deps.historyCallSeconds,
      seed: this.deps.universe.seed,
    });
    this.scripts.set(entry.callId, script);
    return script;
  }

  /** The planned transcript of a historical call (also the one a release run speaks). */
  planOf(entry: HistoryCall): PlannedTimeline {
    return planTimeline(this.scriptFor(entry), entry.startTime.getTime());
  }

  private metaOf(entry: HistoryCall): Meta {
    let meta = this.meta.get(entry.callId);
    if (!meta) {
      meta = { plannedSeconds: this.planOf(entry).durationSeconds, title: this.scriptFor(entry).title };
      this.meta.set(entry.callId, meta);
    }
    return meta;
  }

  /** Every record with actuals whose call starts in (fromMs, toMs], as entries (finished or not). */
  private entriesStarting(fromMs: number, toMs: number, nowMs: number): HistoryEntry[] {
    return this.recordCalls(nowMs)
      .filter((base) => base.startTime.getTime() > fromMs && base.startTime.getTime() <= toMs)
      .map((base) => ({ ...base, ...this.metaOf(base), live: null }));
  }

  /** Calls whose start lies in (fromMs, toMs]: what the release watcher starts live. */
  callsStartingBetween(fromMs: number, toMs: number): HistoryEntry[] {
    return this.entriesStarting(fromMs, toMs, toMs);
  }

  private history(nowMs: number): { entries: HistoryEntry[]; byId: Map<string, HistoryEntry> } {
    const minute = Math.floor(nowMs / 60_000);
    if (this.historyMemo?.minute === minute) return this.historyMemo;
    // The calendar's window is the history's: every record it shows with actuals has its call once that is over.
    const entries = this.entriesStarting(Number.NEGATIVE_INFINITY, nowMs, nowMs).filter(
      // A call still running (or not enriched yet) at start + length is not history yet.
      (e) => e.startTime.getTime() + e.plannedSeconds * 1000 + this.deps.enrichDelayMs <= nowMs,
    );
    this.historyMemo = { minute, entries, byId: new Map(entries.map((e) => [e.callId, e])) };
    return this.historyMemo;
  }

  /**
   * Computes every historical call's planned length in the background, a few calls per turn of the event loop,
   * so the first listing after start-up finds them ready (about a millisecond each) without delaying start-up.
   * With `digests`, their summaries too (a few milliseconds each, one call per turn, so live ticks stay on time).
   */
  warm(nowMs: number, options: { digests: boolean }): void {
    let pending: HistoryCall[] | null = null;
    const step = () => {
      try {
        pending ??= this.recordCalls(nowMs);
        for (let n = 0; n < (options.digests ? 1 : 10); n++) {
          const base = pending.pop();
          if (!base) return;
          const entry = { ...base, ...this.metaOf(base), live: null };
          if (options.digests && entry.startTime.getTime() + entry.plannedSeconds * 1000 <= nowMs)
            this.digestOf(entry);
        }
      } catch {
        // Not worth a log line: listing computes what it needs itself, and answers for what fails there.
        return;
      }
      setImmediate(step).unref();
    };
    setImmediate(step).unref();
  }

  private recordCalls(nowMs: number): HistoryCall[] {
    const records = this.deps.universe.earningsRecords(new Date(nowMs));
    const around = this.neighbours(records, nowMs);
    const out: HistoryCall[] = [];
    for (const record of records) {
      const company = this.deps.universe.findCompany(record.ticker);
      if (!company || !hasActuals(record)) continue;
      out.push({
        callId: historicalCallId(company.symbol, record.period, record.period_year),
        kind: "historical",
        company,
        record,
        nextRecord: around.next(record),
        previousRecord: around.previous(record),
        startTime: callStartOf(record),
      });
    }
    return out;
  }

  // ---------- lookups

  entryOfRuntime(runtime: CallRuntime): LiveEntry {
    return {
      callId: runtime.callId,
      kind: runtime.info.kind,
      company: runtime.info.company,
      record: runtime.info.record,
      startTime: runtime.info.startTime,
      plannedSeconds: runtime.info.plannedSeconds,
      title: runtime.script.title,
      live: runtime,
    };
  }

  /** The historical calls at `nowMs` (the release runs among them included, as their history). */
  historicalCalls(nowMs: number): readonly HistoryEntry[] {
    return this.history(nowMs).entries;
  }

  all(nowMs: number): CallEntry[] {
    const live = this.liveRuntimes().map((r) => this.entryOfRuntime(r));
    // A release run and the history of the same record share the call id: the run answers for it.
    const history = this.history(nowMs).entries.filter((e) => !this.liveRuns.has(e.callId));
    return [...live, ...history];
  }

  find(callId: string, nowMs: number): CallEntry | undefined {
    const live = this.liveRuns.get(callId);
    if (live) return this.entryOfRuntime(live);
    return this.history(nowMs).byId.get(callId);
  }

  /** Enrichment of a historical call, from its planned transcript. */
  textEnrichment(entry: HistoryEntry): TextEnrichment {
    const cached = this.textEnrichments.get(entry.callId);
    if (cached) return cached;
    const script = this.scriptFor(entry);
    const input: EnrichmentInput = {
      callId: entry.callId,
      callTitle: script.title,
      symbol: entry.company.symbol,
      companyName: entry.company.name,
      startTime: entry.startTime,
      speakers: script.speakers,
      segments: this.planOf(entry).sentences.map((s) => ({
        sequence: s.sequence,
        speakerLabel: s.speakerLabel,
        text: s.text,
        startMs: s.startMs,
        endMs: s.endMs,
      })),
    };
    const result = this.deps.enricher.enrich(input);
    const enrichedAt = new Date(
      entry.startTime.getTime() + entry.plannedSeconds * 1000 + this.deps.enrichDelayMs,
    );
    const value = { input, result, enrichedAt };
    this.textEnrichments.set(entry.callId, value);
    return value;
  }

  /**
   * The summary and participants of a call, for listings: computed once per historical call (a few milliseconds:
   * the summary ranks every sentence) and kept, so paging through a year of calls costs that only the first time.
   */
  digestOf(entry: CallEntry): EnrichmentDigest | null {
    if (entry.live) return entry.live.enrichment;
    let digest = this.digests.get(entry.callId);
    if (!digest) {
      const { result, enrichedAt } = this.textEnrichment(entry);
      digest = {
        result: {
          summaryLines: result.summaryLines,
          overallSentiment: result.overallSentiment,
          participants: result.participants,
        },
        enrichedAt,
      };
      this.digests.set(entry.callId, digest);
    }
    return digest;
  }

  /** The enrichment a call shows: a live run's once it has one, a historical call's always. */
  enrichmentOf(entry: CallEntry): TextEnrichment | null {
    return entry.live ? entry.live.enrichment : this.textEnrichment(entry);
  }

  /** The call's transcript: a live run's as it stands, a historical call's as planned. */
  transcriptOf(entry: CallEntry): TranscriptView {
    if (entry.live) return entry.live;
    return {
      sentences: this.planOf(entry).sentences,
      endTime: new Date(entry.startTime.getTime() + entry.plannedSeconds * 1000),
    };
  }

  private async buildHistorical(entry: HistoryEntry): Promise<CallRuntime> {
    const speech = await this.deps.speech();
    const info: CallInfo = {
      ...entry,
      plannedStartsMs: this.planOf(entry).sentences.map((s) => s.startMs),
    };
    const track = this.deps.createTrack();
    return new CallRuntime(info, this.scriptFor(entry), {
      speech,
      createTrack: () => track,
      enricher: this.deps.enricher,
      now: this.deps.now,
      enrichDelayMs: this.deps.enrichDelayMs,
    });
  }

  /**
   * The call with audio, or null when its audio is gone (old live runs). Historical audio builds in the
   * background; the promise resolves as soon as the playlist holds its first segment.
   */
  async withAudio(entry: CallEntry): Promise<CallRuntime | null> {
    if (entry.live) return entry.live.track && entry.live.hasAudio ? entry.live : null;
    const cached = this.audio.get(entry.callId);
    if (cached) return cached;
    const key = `audio:${entry.callId}`;
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = (async () => {
        const runtime = await this.buildHistorical(entry);
        this.audio.set(entry.callId, runtime);
        const firstSegment = new Promise<void>((resolve) => runtime.once("audio", () => resolve()));
        const built = runtime.buildOffline().catch((error: unknown) => {
          // A build the shutdown cut short (the closing speech engine fails what it was speaking) is no failure.
          if (!this.closed) console.error(`[embedded/live] audio build of ${entry.callId} failed:`, error);
        });
        await Promise.race([firstSegment, built]);
        return runtime;
      })().finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }

  close(): void {
    this.closed = true;
    for (const runtime of this.liveRuns.values()) runtime.dispose();
    this.liveRuns.clear();
    this.audio.clear();
  }
}
