/**
 * The live-calls controller: owns the speech engine, the call store, the stream hub, the scheduler, the release
 * watcher (a record's call goes live when its time passes) and the clock that drives live calls (one tick every
 * 100 ms publishes audio and releases sentences as wall time passes).
 */
import { LRUCache } from "lru-cache";
import type { Company, Universe } from "../universe/types";
import type { WireEarningsRecord } from "../universe/wire";
import type { CallAudioTrack, SpeechEngine } from "./audio/types";
import { closeSpeechEngine, createCallAudioTrack, createSpeechEngine } from "./audio/index";
import { CallRuntime, type CallInfo, type CallKind } from "./call";
import { CallStore, type CallEntry, type HistoryEntry } from "./call-store";
import type { LiveConfig } from "./config";
import type { Enricher } from "./enrichment/types";
import { controlCallId, scheduledCallId } from "./ids";
import { createLinkSigner, type LinkSigner } from "./links";
import { Scheduler } from "./scheduler";
import { ReleaseWatcher } from "./release-watcher";
import { replayPlan } from "./replay/replay-script";
import { silentSpeech, TimelineTrack } from "./replay/timeline";
import type { TranscriptFile } from "./replay/transcript-file";
import { generateScript } from "./script/generate";
import type { CallScript } from "./script/types";
import type { WireDialect } from "../wire/documented";
import { StreamHub } from "./ws";

export interface LiveCallsOptions {
  universe: Universe;
  config: LiveConfig;
  baseUrl: () => string;
  enricher: Enricher;
  speech?: SpeechEngine;
  /** Synthesize on the main thread instead of a worker (`EMBEDDED_SPEECH_WORKER=0`). */
  speechInThread?: boolean;
  isWsSilent: () => boolean;
  authorize: (key: string | null) => "ok" | "unauthorized" | "forbidden";
  wsPingIntervalMs: number;
  /** Wire dialect of the stream's acknowledgments (`EMBEDDED_WIRE`). */
  wire?: WireDialect;
  historyCallSeconds: number;
  /** Wall clock in ms (tests shift it); default `Date.now`. */
  now?: () => number;
  /** Summaries of the whole history in the background too (see `CallStore.warm`). */
  warmSummaries?: boolean;
  /** `EMBEDDED_TRANSCRIPTS_DIR`: the folder replays read transcript files from; none = no replays. */
  transcriptsDir?: string;
}

/** Replays live at once, at most: each costs a timeline tick (and its speech, with audio). */
export const MAX_REPLAYS = 8;

export interface ReplayOptions {
  /** The call's timeline runs this many times faster than real time. */
  speed: number;
  /** Speak the sentences (the speech engine; HLS and MP3 as any call) or keep time silently (no media). */
  audio: boolean;
}

const TICK_MS = 100;
/**
 * Release calls live at once, at most: a busy evening slot has up to a dozen reports, and each live call costs its
 * share of speech synthesis and real-time MP3 encoding. The calls beyond it are history once their time is over.
 */
const MAX_RELEASE_CALLS = 8;

/**
 * The record a live call speaks to: the company's latest report with actuals, so the figures match the calendar
 * exactly; when it has none yet, its next report's estimates (stated as the quarter's figures). Its next and
 * previous records come from the window when there, else from `adjacent` (the universe's, `CallStore.adjacentRecordOf`):
 * a company that reported just before the window's end has its next report past it, and still guides for it.
 */
export function recordsForLiveCall(
  records: readonly WireEarningsRecord[],
  symbol: string,
  adjacent: (record: WireEarningsRecord, step: -1 | 1) => WireEarningsRecord | undefined = () => undefined,
): { record: WireEarningsRecord; next?: WireEarningsRecord; previous?: WireEarningsRecord } | undefined {
  const own = records.filter((r) => r.ticker === symbol);
  let index = -1;
  own.forEach((r, i) => {
    if (r.eps !== "" || r.revenue !== "") index = i;
  });
  if (index === -1) index = own.length > 0 ? 0 : -1;
  const record = own[index];
  if (!record) return undefined;
  return {
    record,
    next: own[index + 1] ?? adjacent(record, 1),
    previous: own[index - 1] ?? adjacent(record, -1),
  };
}

export class LiveCalls {
  readonly store: CallStore;
  readonly hub: StreamHub;
  readonly universe: Universe;
  private readonly signer: LinkSigner;
  private readonly speech: Promise<SpeechEngine>;
  private readonly ticker: NodeJS.Timeout;
  private readonly pdfs = new LRUCache<string, Promise<Buffer>>({ max: 16 });
  private readonly scheduler: Scheduler | null;
  private readonly releases: ReleaseWatcher | null;
  private readonly now: () => number;
  private nonce = 0;

  constructor(private readonly options: LiveCallsOptions) {
    this.universe = options.universe;
    this.now = options.now ?? (() => Date.now());
    this.signer = createLinkSigner(options.config.linkTtlSeconds);
    this.speech = options.speech
      ? Promise.resolve(options.speech)
      : createSpeechEngine({ inThread: options.speechInThread });
    // An engine that fails to load must not crash the process at start-up; calls report it when they need it.
    this.speech.catch((error: unknown) =>
      console.error("[embedded/live] speech engine failed to load:", error),
    );
    this.store = new CallStore({
      universe: options.universe,
      speech: () => this.speech,
      createTrack: () => createCallAudioTrack(),
      enricher: options.enricher,
      now: this.now,
      enrichDelayMs: options.config.enrichDelayMs,
      historyCallSeconds: options.historyCallSeconds,
      audioCacheSize: options.config.audioCacheSize,
    });
    this.store.warm(this.now(), { digests: options.warmSummaries ?? false });
    this.hub = new StreamHub({
      authorize: options.authorize,
      isSilent: options.isWsSilent,
      liveCalls: () => this.liveRuntimes(),
      hlsUrl: (runtime) => this.signedUrl(`/api/v1/transcripts/calls/${runtime.callId}/hls`),
      pingIntervalMs: options.wsPingIntervalMs,
      deadAfterMs: options.wsPingIntervalMs * 3,
      wire: options.wire,
    });
    this.ticker = setInterval(() => {
      for (const runtime of this.liveRuntimes()) runtime.tick();
    }, TICK_MS);
    this.ticker.unref();
    this.scheduler =
      options.config.liveCalls > 0
        ? new Scheduler({
            lanes: options.config.liveCalls,
            callSeconds: options.config.callSeconds,
            universe: options.universe,
            now: this.now,
            liveSymbols: () => new Set(this.liveRuntimes().map((r) => r.info.company.symbol)),
            start: (company, durationSeconds, onDone) =>
              this.startCall("scheduled", company, durationSeconds).then((runtime) => {
                runtime.once("completed", onDone);
              }),
          })
        : null;
    this.scheduler?.start();
    // `EMBEDDED_LIVE_CALLS=0` means no call goes live on its own (tests, quiet demos): release calls neither.
    this.releases =
      options.config.liveCalls > 0
        ? new ReleaseWatcher({
            now: this.now,
            intervalMs: 1000,
            due: (fromMs, toMs) => this.store.callsStartingBetween(fromMs, toMs),
            isRunning: (callId) => this.store.hasLive(callId),
            start: (entry) =>
              this.liveRuntimes().filter((r) => r.info.kind === "release").length < MAX_RELEASE_CALLS
                ? this.startReleaseCall(entry)
                : Promise.resolve(null),
          })
        : null;
    this.releases?.start();
  }

  liveRuntimes(): CallRuntime[] {
    return this.store.liveRuntimes().filter((r) => r.status !== "COMPLETED");
  }

  get transcriptsDir(): string | undefined {
    return this.options.transcriptsDir;
  }

  get enrichDelayMs(): number {
    return this.options.config.enrichDelayMs;
  }

  // Links are signed and checked on the real clock, not the service's (`EMBEDDED_NOW`): the app reads their expiry
  // against its own clock, and a link must be as valid for it as one from the real service (docs/upstream.md §7).
  signedUrl(path: string): string {
    return `${this.options.baseUrl()}${path}?${this.signer.sign(path, Date.now())}`;
  }

  verifyLink(path: string, query: URLSearchParams): boolean {
    return this.signer.verify(path, query, Date.now());
  }

  /** Control API: a call on `company` starting now. */
  startControlCall(company: Company, durationSeconds?: number): Promise<CallRuntime> {
    return this.startCall("control", company, durationSeconds ?? this.options.config.callSeconds);
  }

  /** The call of a record whose release has just passed: its history, spoken live (same id, same script). */
  async startReleaseCall(entry: HistoryEntry): Promise<CallRuntime> {
    const info = {
      callId: entry.callId,
      kind: "release" as const,
      company: entry.company,
      record: entry.record,
      startTime: entry.startTime,
      plannedSeconds: entry.plannedSeconds,
    };
    return this.run(info, this.store.scriptFor(entry));
  }

  private async startCall(kind: CallKind, company: Company, durationSeconds: number): Promise<CallRuntime> {
    const startMs = this.now();
    const picked = recordsForLiveCall(
      this.universe.earningsRecords(new Date(startMs)),
      company.symbol,
      (record, step) => this.store.adjacentRecordOf(record, step, startMs),
    );
    if (!picked) throw new Error(`no earnings record for ${company.symbol}`);
    const { record, next, previous } = picked;
    const callId =
      kind === "control"
        ? controlCallId(company.symbol, startMs, this.nonce++)
        : scheduledCallId(company.symbol, record.period, record.period_year, startMs);
    const startTime = new Date(startMs);
    const info = {
      callId,
      kind,
      company,
      record,
      nextRecord: next,
      startTime,
      plannedSeconds: durationSeconds,
    };
    const script = generateScript({
      ...info,
      previousRecord: previous,
      targetSeconds: durationSeconds,
      seed: this.universe.seed,
    });
    return this.run(info, script);
  }

  /**
   * A transcript file played as a live call (docs/upstream.md §7, "Replay"): its own call id, its ticker as the
   * symbol, its sentences at their word-count times, walked at `speed`; with `audio`, spoken by the speech engine.
   */
  async startReplay(file: TranscriptFile, options: ReplayOptions): Promise<CallRuntime> {
    const startMs = this.now();
    const { ticker, period, year } = file.name;
    const callId = controlCallId(ticker, startMs, this.nonce++);
    const plan = replayPlan(file, callId);
    const info: CallInfo = {
      callId,
      kind: "replay",
      company: { symbol: ticker, name: ticker, shortName: ticker, exchange: "" },
      record: { period, period_year: year },
      startTime: new Date(startMs),
      plannedSeconds: plan.durationSeconds,
      plannedStartsMs: plan.startsMs,
      speed: options.speed,
      audio: options.audio,
    };
    if (options.audio) return this.run(info, plan.script);
    return this.run(info, plan.script, { speech: silentSpeech, createTrack: () => new TimelineTrack() });
  }

  /** Replays still live. */
  liveReplays(): number {
    return this.liveRuntimes().filter((r) => r.info.kind === "replay").length;
  }

  private async run(
    info: CallInfo,
    script: CallScript,
    media?: { speech: SpeechEngine; createTrack: () => CallAudioTrack },
  ): Promise<CallRuntime> {
    const speech = media?.speech ?? (await this.speech);
    const runtime = new CallRuntime(info, script, {
      speech,
      createTrack: media?.createTrack ?? (() => createCallAudioTrack({ sampleRate: speech.sampleRate })),
      enricher: this.options.enricher,
      now: this.now,
      enrichDelayMs: this.options.config.enrichDelayMs,
    });
    runtime.on("audio", () => this.hub.callAudio(runtime));
    runtime.on("sentence", (sentence, isLast) => this.hub.callSentence(runtime, sentence, isLast));
    this.store.addLive(runtime);
    runtime.tick();
    return runtime;
  }

  /** The PDF of an enriched call, rendered once and cached; null until enriched. */
  async pdf(entry: CallEntry): Promise<Buffer | null> {
    const enrichment = this.store.enrichmentOf(entry);
    if (!enrichment) return null;
    let pending = this.pdfs.get(entry.callId);
    if (!pending) {
      pending = this.options.enricher.renderPdf(enrichment.input, enrichment.result);
      pending.catch(() => this.pdfs.delete(entry.callId));
      this.pdfs.set(entry.callId, pending);
    }
    return pending;
  }

  async close(): Promise<void> {
    this.scheduler?.stop();
    this.releases?.stop();
    clearInterval(this.ticker);
    await this.hub.close();
    this.store.close();
    // Only an engine this service created is its to stop.
    if (!this.options.speech) await this.speech.then(closeSpeechEngine, () => undefined);
  }
}
