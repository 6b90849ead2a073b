/**
 * Every call the service knows: live runs (scheduled and control-API calls, kept in memory as they happen) and
 * historical calls (one per past earnings record of the last 60 days, contract §7), built on demand.
 *
 * Historical calls in three tiers, so that listing never synthesizes speech (decision, see the report):
 * 1. metadata (ids, company, times, status) and the script: pure computation, milliseconds;
 *    the summary list and one summary also stay here, because enrichment reads only the text;
 * 2. the timed transcript (segment `start_ms`/`end_ms`): the script spoken by the speech engine into a
 *    time-only track (no MP3 encoding), single-flight, cached for `TIMED_CACHE` calls; a few seconds per call;
 * 3. the audio (HLS + MP3 + PDF): the same timeline rebuilt with MP3 encoding in the background when a media link
 *    or `audio=true` asks for it, kept for the `EMBEDDED_AUDIO_CACHE` most recent calls; its playlist grows while
 *    it builds, like a live one. Speech is deterministic, so tiers 2 and 3 agree to the millisecond.
 * A historical call starts at its record's report time (US Eastern) and lasts its script's estimated length,
 * padded with silence to exactly that, so the metadata can state `end_time` before any audio exists.
 */
import { LRUCache } from "lru-cache";
import type { Company, Universe } from "../universe/types";
import type { WireEarningsRecord } from "../universe/wire";
import type { CallAudioTrack, SpeechEngine } from "./audio/types";
import { CallRuntime, type CallInfo, type CallKind } from "./call";
import type { Enricher, EnrichmentInput, EnrichmentResult } from "./enrichment/types";
import { historicalCallId } from "./ids";
import { estimateSpeechSeconds, generateScript, type CallScript } from "./script/generate";
import { createTimingTrack } from "./timing-track";

const HISTORY_DAYS = 60;
const TIMED_CACHE = 200;
const LIVE_KEEP = 300;

export interface StoreDeps {
  universe: Universe;
  speech: () => Promise<SpeechEngine>;
  createTrack: () => CallAudioTrack;
  enricher: Enricher;
  now: () => number;
  enrichDelayMs: number;
  historyCallSeconds: number;
  audioCacheSize: number;
}

/** What every view needs; cheap for historical calls. */
export interface CallEntry {
  callId: string;
  kind: CallKind;
  company: Company;
  record: WireEarningsRecord;
  nextRecord?: WireEarningsRecord;
  startTime: Date;
  plannedSeconds: number;
  title: string;
  /** Live runs only: the runtime that is (or was) live. */
  live: CallRuntime | null;
}

export interface TextEnrichment {
  input: EnrichmentInput;
  result: EnrichmentResult;
  enrichedAt: Date;
}

/** US Eastern wall time → UTC instant (DST-aware through Intl). */
export function easternToUtc(date: string, time: string): Date {
  const [y = 1970, m = 1, d = 1] = date.split("-").map(Number);
  const [hh = 16, mm = 30, ss = 0] = (time || "16:30:00").split(":").map(Number);
  const asUtc = Date.UTC(y, m - 1, d, hh, mm, ss);
  const offset = (at: number) => {
    const parts = new Intl.DateTimeFormat("en-US", {
      timeZone: "America/New_York",
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    }).formatToParts(new Date(at));
    const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
    return (
      Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second")) - at
    );
  };
  return new Date(asUtc - offset(asUtc + 5 * 3_600_000));
}

const hasActuals = (r: WireEarningsRecord) => r.eps !== "" || r.revenue !== "";

export class CallStore {
  private readonly liveRuns = new Map<string, CallRuntime>();
  private readonly scripts = new LRUCache<string, CallScript>({ max: 1000 });
  private readonly textEnrichments = new LRUCache<string, TextEnrichment>({ max: 1000 });
  private readonly timed = new LRUCache<string, CallRuntime>({ max: TIMED_CACHE });
  private readonly audio: LRUCache<string, CallRuntime>;
  private readonly inflight = new Map<string, Promise<CallRuntime>>();
  private historyMemo: { minute: number; entries: CallEntry[]; byId: Map<string, CallEntry> } | null = null;

  constructor(private readonly deps: StoreDeps) {
    this.audio = new LRUCache<string, CallRuntime>({
      max: deps.audioCacheSize,
      dispose: (runtime) => runtime.dispose(),
    });
  }

  // ---------- live runs

  addLive(runtime: CallRuntime): void {
    this.liveRuns.set(runtime.callId, runtime);
    runtime.on("completed", () => this.trimLive());
  }

  liveRuntimes(): CallRuntime[] {
    return [...this.liveRuns.values()];
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

  // ---------- historical calls

  scriptFor(info: Omit<CallInfo, "plannedSeconds">, targetSeconds: number): CallScript {
    const cached = this.scripts.get(info.callId);
    if (cached) return cached;
    const script = generateScript({ ...info, targetSeconds });
    this.scripts.set(info.callId, script);
    return script;
  }

  private history(nowMs: number): { entries: CallEntry[]; byId: Map<string, CallEntry> } {
    const minute = Math.floor(nowMs / 60_000);
    if (this.historyMemo?.minute === minute) return this.historyMemo;
    const records = this.deps.universe.earningsRecords(new Date(nowMs));
    const nextOf = new Map<WireEarningsRecord, WireEarningsRecord>();
    const lastByTicker = new Map<string, WireEarningsRecord>();
    for (const record of records) {
      const previous = lastByTicker.get(record.ticker);
      if (previous) nextOf.set(previous, record);
      lastByTicker.set(record.ticker, record);
    }
    const entries: CallEntry[] = [];
    const from = nowMs - HISTORY_DAYS * 86_400_000;
    for (const record of records) {
      if (!hasActuals(record)) continue;
      const startTime = easternToUtc(record.date, record.time);
      if (startTime.getTime() < from || startTime.getTime() > nowMs) continue;
      const company = this.deps.universe.findCompany(record.ticker);
      if (!company) continue;
      const callId = historicalCallId(company.symbol, record.period, record.period_year);
      const nextRecord = nextOf.get(record);
      const script = this.scriptFor(
        { callId, kind: "historical", company, record, nextRecord, startTime },
        this.deps.historyCallSeconds,
      );
      const plannedSeconds = Math.ceil(
        script.sentences.reduce((s, x) => s + estimateSpeechSeconds(x.text), 0) * 1.08 + 3,
      );
      // A call still running (or not enriched yet) at report time + length is not history yet.
      if (startTime.getTime() + plannedSeconds * 1000 + this.deps.enrichDelayMs > nowMs) continue;
      entries.push({
        callId,
        kind: "historical",
        company,
        record,
        nextRecord,
        startTime,
        plannedSeconds,
        title: script.title,
        live: null,
      });
    }
    this.historyMemo = { minute, entries, byId: new Map(entries.map((e) => [e.callId, e])) };
    return this.historyMemo;
  }

  // ---------- lookups

  entryOfRuntime(runtime: CallRuntime): CallEntry {
    return {
      callId: runtime.callId,
      kind: runtime.info.kind,
      company: runtime.info.company,
      record: runtime.info.record,
      nextRecord: runtime.info.nextRecord,
      startTime: runtime.info.startTime,
      plannedSeconds: runtime.info.plannedSeconds,
      title: runtime.script.title,
      live: runtime,
    };
  }

  all(nowMs: number): CallEntry[] {
    return [...this.liveRuntimes().map((r) => this.entryOfRuntime(r)), ...this.history(nowMs).entries];
  }

  find(callId: string, nowMs: number): CallEntry | undefined {
    const live = this.liveRuns.get(callId);
    if (live) return this.entryOfRuntime(live);
    return this.history(nowMs).byId.get(callId);
  }

  /** Summary-level enrichment of a historical call, from the script text alone (times estimated). */
  textEnrichment(entry: CallEntry): TextEnrichment {
    const cached = this.textEnrichments.get(entry.callId);
    if (cached) return cached;
    const script = this.historicalScript(entry);
    let cursor = 1200;
    const input: EnrichmentInput = {
      callId: entry.callId,
      callTitle: script.title,
      symbol: entry.company.symbol,
      companyName: entry.company.name,
      startTime: entry.startTime,
      speakers: script.speakers,
      segments: script.sentences.map((s, sequence) => {
        const startMs = cursor;
        cursor += Math.round(estimateSpeechSeconds(s.text) * 1000);
        return { sequence, speakerLabel: s.speakerLabel, text: s.text, startMs, endMs: cursor - 500 };
      }),
    };
    const result = this.deps.enricher.enrich(input);
    const enrichedAt = new Date(
      entry.startTime.getTime() + entry.plannedSeconds * 1000 + this.deps.enrichDelayMs,
    );
    const value = { input, result, enrichedAt };
    this.textEnrichments.set(entry.callId, value);
    return value;
  }

  private historicalScript(entry: CallEntry): CallScript {
    return this.scriptFor(entry, this.deps.historyCallSeconds);
  }

  private async buildHistorical(entry: CallEntry, withAudio: boolean): Promise<CallRuntime> {
    const speech = await this.deps.speech();
    const info: CallInfo = { ...entry };
    const track = withAudio ? this.deps.createTrack() : createTimingTrack(speech.sampleRate);
    const runtime = new CallRuntime(info, this.historicalScript(entry), {
      speech,
      createTrack: () => track,
      enricher: this.deps.enricher,
      now: this.deps.now,
      enrichDelayMs: this.deps.enrichDelayMs,
    });
    return runtime;
  }

  /** The call with its timed transcript (live runs as they are; historical built once, then cached). */
  async withTranscript(entry: CallEntry): Promise<CallRuntime> {
    if (entry.live) return entry.live;
    const audio = this.audio.get(entry.callId);
    if (audio?.status === "COMPLETED") return audio;
    const cached = this.timed.get(entry.callId);
    if (cached) return cached;
    const key = `timed:${entry.callId}`;
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = (async () => {
        const runtime = await this.buildHistorical(entry, false);
        await runtime.buildOffline();
        this.timed.set(entry.callId, runtime);
        return runtime;
      })().finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }

  /**
   * The call with audio, or null when its audio is gone (old live runs). Historical audio builds in the
   * background; the promise resolves as soon as the playlist holds its first segment.
   */
  async withAudio(entry: CallEntry): Promise<CallRuntime | null> {
    if (entry.live) return entry.live.track ? entry.live : null;
    const cached = this.audio.get(entry.callId);
    if (cached) return cached;
    const key = `audio:${entry.callId}`;
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = (async () => {
        const runtime = await this.buildHistorical(entry, true);
        this.audio.set(entry.callId, runtime);
        const firstSegment = new Promise<void>((resolve) => runtime.once("audio", () => resolve()));
        const built = runtime.buildOffline().catch((error: unknown) => {
          console.error(`[embedded/live] audio build of ${entry.callId} failed:`, error);
        });
        await Promise.race([firstSegment, built]);
        return runtime;
      })().finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }

  close(): void {
    for (const runtime of this.liveRuns.values()) runtime.dispose();
    this.liveRuns.clear();
    this.audio.clear();
    for (const runtime of this.timed.values()) runtime.dispose();
    this.timed.clear();
  }
}
