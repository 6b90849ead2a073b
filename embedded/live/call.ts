/**
 * One call at run time: its script spoken sentence by sentence into a `CallAudioTrack`, and the transcript that
 * follows the audio.
 *
 * Live pacing (docs/upstream.md §7: "sentences are sent when their audio is"): sentences are synthesized a few seconds
 * ahead of the playhead and appended to the track with pauses; `tick(now)` publishes the HLS segments that wall
 * time has reached, and a sentence is released (REST LIVE transcript + `sentence` event) only once the segment
 * holding its end is published. Segment times come from the track offsets plus the clip's word timings, so they
 * match the audio exactly. When synthesis falls behind the wall clock, silence fills the gap so that the audio
 * timeline stays the call's clock.
 *
 * Historical calls use the same path without waiting (`buildOffline`), which is why their segment times match
 * their audio too.
 */
import { EventEmitter } from "node:events";
import type { Company } from "../universe/types";
import type { WireEarningsRecord } from "../universe/wire";
import type { CallAudioTrack, SpeechEngine } from "./audio/types";
import type { Enricher, EnrichmentInput, EnrichmentResult } from "./enrichment/types";
import { estimateSpeechSeconds } from "./script/lines";
import { SHORT_CALL_SECONDS } from "./script/short";
import type { CallScript } from "./script/types";
import { rngFromLabel } from "../universe/prng";

/**
 * `release`: the live run of a calendar record's call, started when its time passes (same id as its history);
 * `replay`: a transcript file played as a live call (replay/).
 */
export type CallKind = "scheduled" | "control" | "historical" | "release" | "replay";
export type CallStatus = "STARTED" | "IN_PROGRESS" | "COMPLETED";

/** What a call shows of its company: a universe company, or a replayed transcript's ticker (replay/). */
export type CallCompany = Pick<Company, "symbol" | "name" | "shortName" | "exchange">;
/** The fiscal quarter a call is about: its calendar record, or what a replayed file's name says. */
export type CallRecord = Pick<WireEarningsRecord, "period" | "period_year">;

export interface CallInfo {
  callId: string;
  kind: CallKind;
  company: CallCompany;
  record: CallRecord;
  startTime: Date;
  plannedSeconds: number;
  /**
   * Where each sentence starts (ms): historical audio builds and replays follow the stated transcript. A replay
   * keeps these offsets whatever its speed, as its call-time timeline.
   */
  plannedStartsMs?: readonly number[] | undefined;
  /** Replays: how many times faster than real time the call's timeline runs (1 = real time). */
  speed?: number;
  /** False for a call with no media (a replay without audio): no HLS, no MP3, no `hls_url` announced. */
  audio?: boolean;
}

export interface WordOut {
  text: string;
  /** ms from the sentence start. */
  start: number;
  end: number;
  confidence: number;
}

export interface SpokenSentence {
  sequence: number;
  speakerLabel: string;
  text: string;
  /** On the call timeline (= the audio), ms. */
  startMs: number;
  endMs: number;
  confidence: number;
  words: WordOut[];
  /** Wall time the sentence was released. */
  releasedAt: Date;
}

export interface CallEnrichment {
  input: EnrichmentInput;
  result: EnrichmentResult;
  enrichedAt: Date;
}

export interface CallDeps {
  speech: SpeechEngine;
  createTrack: () => CallAudioTrack;
  enricher: Enricher;
  /** Wall clock in ms; injectable for tests. */
  now: () => number;
  enrichDelayMs: number;
}

/** Silence before the operator's first word: the line "connects" (shorter on short calls, which cannot spare it). */
const LEAD_IN_MS = 1200;
/** After the last word, so the final segment does not cut the speaker off. */
const TRAIL_MS = 1500;
/** Short calls' trail: the end pad (see `tick`) usually follows it anyway. */
const SHORT_TRAIL_MS = 300;
/** How far past the playhead a live tick encodes MP3 (more than the encoder's look-ahead). */
const ENCODE_AHEAD_MS = 400;
/** How far ahead of the playhead audio is synthesized. */
const LOOKAHEAD_MS = 6000;

export interface CallRuntimeEvents {
  /** The playlist holds its first segment: the HLS link works from now on. */
  audio: [];
  sentence: [sentence: SpokenSentence, isLast: boolean];
  completed: [];
  enriched: [];
}

export class CallRuntime extends EventEmitter<CallRuntimeEvents> {
  status: CallStatus = "STARTED";
  endTime: Date | null = null;
  readonly sentences: SpokenSentence[] = [];
  enrichment: CallEnrichment | null = null;
  playlistPublished = false;
  track: CallAudioTrack | null;
  /** Wall time of the latest change, for `updated_at`. */
  updatedAt: Date;

  private readonly pending: SpokenSentence[] = [];
  private nextIndex = 0;
  private synthesizing: Promise<void> | null = null;
  private lastSpeaker: string | null = null;
  private trailed = false;
  private endRequested = false;
  private disposed = false;
  private enrichTimer: NodeJS.Timeout | null = null;
  private readonly voices = new Map<string, string>();
  private readonly closeSeconds: number;
  private readonly short: boolean;
  private readonly leadInMs: number;
  private readonly trailMs: number;

  constructor(
    readonly info: CallInfo,
    readonly script: CallScript,
    private readonly deps: CallDeps,
  ) {
    super();
    this.track = deps.createTrack();
    this.updatedAt = info.startTime;
    this.short = !this.followsPlan && info.plannedSeconds < SHORT_CALL_SECONDS;
    this.leadInMs = this.short ? Math.min(LEAD_IN_MS, Math.max(200, info.plannedSeconds * 20)) : LEAD_IN_MS;
    this.trailMs = this.short ? SHORT_TRAIL_MS : TRAIL_MS;
    this.closeSeconds = script.sentences
      .slice(script.closeIndex)
      .reduce((s, x) => s + estimateSpeechSeconds(x.text) + 0.8, 0);
    const engineVoices = deps.speech.voices;
    for (const speaker of script.speakers) {
      const index = speaker.label === "OPERATOR" ? 0 : Number(speaker.label.replace(/\D/g, "")) || 0;
      this.voices.set(speaker.label, engineVoices[index % Math.max(1, engineVoices.length)] ?? "");
    }
  }

  get callId(): string {
    return this.info.callId;
  }

  get isLive(): boolean {
    return this.status !== "COMPLETED";
  }

  /** Seconds of the call's timeline so far (live: wall time × speed) or in total (completed). */
  durationSeconds(nowMs: number): number {
    const start = this.info.startTime.getTime();
    const ms = this.endTime ? this.endTime.getTime() - start : (nowMs - start) * this.speed;
    return Math.max(0, Math.floor(ms / 1000));
  }

  /** False for a call without media (a replay without audio). */
  get hasAudio(): boolean {
    return this.info.audio !== false;
  }

  private get speed(): number {
    return this.info.speed ?? 1;
  }

  /** Historical calls and replays say their whole script at planned times: nothing is cut, nothing waits. */
  private get followsPlan(): boolean {
    return this.info.kind === "historical" || this.info.kind === "replay";
  }

  /** Where the call's timeline stands: wall time since the start, times the speed. */
  private elapsedMs(): number {
    return (this.deps.now() - this.info.startTime.getTime()) * this.speed;
  }

  private get scriptDone(): boolean {
    return this.nextIndex >= this.script.sentences.length;
  }

  /** Skip what is left of the script to the operator close (control API `end`). */
  requestEnd(): void {
    this.endRequested = true;
    if (this.nextIndex < this.script.closeIndex) this.nextIndex = this.script.closeIndex;
  }

  /** Resolves once no synthesis is in flight (tests driving `tick` on a fake clock). */
  async idle(): Promise<void> {
    while (this.synthesizing) await this.synthesizing;
  }

  /**
   * Drive a live call: synthesize ahead, publish what wall time has reached, finish at the end. A call whose speech
   * comes out shorter than planned ends with a pause up to its planned duration (docs/upstream.md §7: the call lasts
   * `durationSeconds`), unless the control API ended it.
   */
  tick(): void {
    if (this.disposed || this.status === "COMPLETED" || !this.track) return;
    const elapsed = this.elapsedMs();
    if (!this.synthesizing) {
      if (this.scriptDone) {
        if (!this.trailed) {
          this.track.appendSilence(this.trailMs);
          const plannedMs = this.info.plannedSeconds * 1000;
          if (!this.endRequested && this.track.durationMs < plannedMs)
            this.track.appendSilence(plannedMs - this.track.durationMs);
          this.trailed = true;
        }
      } else if (this.track.durationMs < elapsed + LOOKAHEAD_MS || this.pending.length < 2) {
        this.synthesizing = this.synthesizeNext(true)
          .catch((error: unknown) => this.emitError(error))
          .finally(() => {
            this.synthesizing = null;
            // A replay may walk its timeline at up to 60× real time: its next sentence is taken at once rather
            // than at the next tick, or one sentence per tick (10 a second) would fall behind a fast replay.
            if (this.info.kind === "replay") this.tick();
          });
      }
    }
    const track = this.track;
    // Encoding just ahead of the clock every tick keeps each step to ~100 ms of audio (a few ms of CPU); left to
    // publishUntil, a whole ~2 s segment (~50 ms, more on a loaded machine) would be encoded in one go.
    track.encodeAhead?.(Math.max(0, elapsed) + ENCODE_AHEAD_MS);
    track.publishUntil(Math.max(0, elapsed));
    this.release(publishedEndMs(track));
    if (this.scriptDone && !this.synthesizing && this.trailed && elapsed >= track.durationMs) this.complete();
  }

  /** Build the whole call at once (historical calls): same timeline rules, no waiting. */
  async buildOffline(): Promise<void> {
    while (!this.scriptDone && !this.disposed) {
      await this.synthesizeNext(false);
      const track = this.track;
      if (!track) return;
      // Audio builds publish as they go, so a playlist can be served before the whole call is encoded.
      track.publishUntil(Math.max(0, track.durationMs - 100));
      if (!this.playlistPublished && track.publishedSegments.length > 0) this.markPlaylistPublished();
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    const track = this.track;
    if (!track || this.disposed) return;
    track.appendSilence(this.trailMs);
    this.trailed = true;
    // Historical metadata promises the planned duration before any audio exists, so the audio is padded to it.
    const plannedMs = this.info.plannedSeconds * 1000;
    if (track.durationMs < plannedMs) track.appendSilence(plannedMs - track.durationMs);
    this.complete();
    this.enrichNow();
  }

  private emitError(error: unknown): void {
    // A sentence that cannot be spoken is skipped rather than stalling the call forever. After disposal (shutdown
    // stops the speech worker under requests in flight) the failure is expected and says nothing.
    if (this.disposed) return;
    console.error(`[embedded/live] call ${this.callId}: speech failed:`, error);
  }

  private async synthesizeNext(live: boolean): Promise<void> {
    const track = this.track;
    if (!track) return;
    let index = this.nextIndex;
    // Keep within the planned duration: when the close would overrun it, skip the rest of the Q&A.
    // Historical calls never skip: their sentence set must not depend on synthesis (summaries are built from the
    // script text alone, before any audio exists).
    // Only the Q&A is cut (and a short call's outlook): prepared remarks and the figures in them are sized by the
    // script and always spoken.
    const section = this.script.sentences[index]?.section;
    if (
      !this.endRequested &&
      !this.followsPlan &&
      index < this.script.closeIndex &&
      (section === "qa" || (this.short && section === "guidance"))
    ) {
      const projected =
        track.durationMs / 1000 + estimateSpeechSeconds(this.script.sentences[index]?.text ?? "");
      if (projected + this.closeSeconds > this.info.plannedSeconds) index = this.script.closeIndex;
    }
    const line = this.script.sentences[index];
    this.nextIndex = index + 1;
    if (!line) return;
    const sequence = this.sentences.length + this.pending.length;
    const clip = await this.deps.speech.synthesize(line.text, this.voices.get(line.speakerLabel) ?? "");
    if (this.disposed || this.track !== track) return;

    const rng = rngFromLabel(`timing|${this.callId}|${sequence}`);
    // A live call whose speech fell behind the clock catches up with silence; a replay keeps its planned times.
    if (live && !this.followsPlan) {
      const behind = this.elapsedMs() - track.durationMs;
      if (behind > 0) track.appendSilence(behind);
    }
    const plannedStart = this.info.plannedStartsMs?.[index];
    if (plannedStart !== undefined) {
      // A clip that overran its slot still gets a breath before the next speaker (see planned-timeline.ts).
      const gap = plannedStart - track.durationMs;
      track.appendSilence(Math.max(gap, this.lastSpeaker === null ? 0 : 150));
    } else if (this.lastSpeaker === null) {
      if (track.durationMs < this.leadInMs) track.appendSilence(this.leadInMs - track.durationMs);
    } else if (this.short) {
      // Tighter turn-taking on short calls, tightest under 20 s (the script's sizing assumes these pauses, see
      // `shortCallOverheadSeconds`).
      const tiny = this.info.plannedSeconds < 20;
      track.appendSilence(
        this.lastSpeaker === line.speakerLabel
          ? rng.int(tiny ? 200 : 250, tiny ? 300 : 400)
          : rng.int(tiny ? 300 : 450, tiny ? 400 : 650),
      );
    } else {
      track.appendSilence(this.lastSpeaker === line.speakerLabel ? rng.int(250, 450) : rng.int(650, 1000));
    }
    this.lastSpeaker = line.speakerLabel;
    const span = track.append(clip.samples);
    const first = clip.words[0];
    const last = clip.words[clip.words.length - 1];
    const base = first?.startMs ?? 0;
    const confidence = round3(0.86 + rng.next() * 0.13);
    this.pending.push({
      sequence,
      speakerLabel: line.speakerLabel,
      text: line.text,
      startMs: Math.round(span.startMs + base),
      endMs: Math.round(last ? span.startMs + last.endMs : span.endMs),
      confidence,
      words: clip.words.map((w) => ({
        text: w.text,
        start: Math.max(0, Math.round(w.startMs - base)),
        end: Math.max(0, Math.round(w.endMs - base)),
        confidence: round3(Math.min(1, Math.max(0.5, confidence + (rng.next() - 0.5) * 0.12))),
      })),
      releasedAt: new Date(0),
    });
  }

  private release(limitMs: number): void {
    while (this.pending.length > 0 && (this.pending[0] as SpokenSentence).endMs <= limitMs) {
      const sentence = this.pending.shift() as SpokenSentence;
      if (!this.playlistPublished) this.markPlaylistPublished();
      sentence.releasedAt = new Date(
        this.info.kind === "historical" ? this.info.startTime.getTime() + sentence.endMs : this.deps.now(),
      );
      this.sentences.push(sentence);
      this.status = "IN_PROGRESS";
      this.updatedAt = sentence.releasedAt;
      const isLast = this.scriptDone && this.pending.length === 0 && !this.synthesizing;
      this.emit("sentence", sentence, isLast);
    }
    if (!this.playlistPublished && this.track && this.track.publishedSegments.length > 0)
      this.markPlaylistPublished();
  }

  private markPlaylistPublished(): void {
    this.playlistPublished = true;
    this.emit("audio");
  }

  private complete(): void {
    const track = this.track;
    if (!track || this.status === "COMPLETED") return;
    track.finish();
    track.publishUntil(Number.MAX_SAFE_INTEGER);
    this.release(Number.POSITIVE_INFINITY);
    this.status = "COMPLETED";
    // On the call's own timeline, as its sentences' times are: a replay faster than real time ends ahead of the
    // wall clock (docs/upstream.md §7, "Replay").
    this.endTime = new Date(this.info.startTime.getTime() + track.durationMs);
    this.updatedAt = this.info.kind === "historical" ? this.endTime : new Date(this.deps.now());
    this.emit("completed");
    if (this.info.kind !== "historical") {
      this.enrichTimer = setTimeout(() => this.enrichNow(), this.deps.enrichDelayMs);
      this.enrichTimer.unref();
    }
  }

  enrichmentInput(): EnrichmentInput {
    return {
      callId: this.callId,
      callTitle: this.script.title,
      symbol: this.info.company.symbol,
      companyName: this.info.company.name,
      startTime: this.info.startTime,
      speakers: this.script.speakers,
      segments: this.sentences.map((s) => ({
        sequence: s.sequence,
        speakerLabel: s.speakerLabel,
        text: s.text,
        startMs: s.startMs,
        endMs: s.endMs,
      })),
    };
  }

  enrichNow(): void {
    if (this.enrichment || this.status !== "COMPLETED" || this.disposed) return;
    const input = this.enrichmentInput();
    const result = this.deps.enricher.enrich(input);
    const enrichedAt =
      this.info.kind === "historical"
        ? new Date((this.endTime ?? this.info.startTime).getTime() + this.deps.enrichDelayMs)
        : new Date(this.deps.now());
    this.enrichment = { input, result, enrichedAt };
    this.updatedAt = enrichedAt;
    this.emit("enriched");
  }

  /** Drop the audio (memory bound); the transcript and enrichment stay. */
  releaseAudio(): void {
    if (this.status === "COMPLETED") this.track = null;
  }

  dispose(): void {
    this.disposed = true;
    if (this.enrichTimer) clearTimeout(this.enrichTimer);
    this.removeAllListeners();
  }
}

function publishedEndMs(track: CallAudioTrack): number {
  const segments = track.publishedSegments;
  const last = segments[segments.length - 1];
  return last ? last.startMs + last.durationMs : 0;
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
