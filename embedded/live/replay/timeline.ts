/**
 * A replay without audio still runs on a timeline, like every live call (call.ts): sentences are released when the
 * call's clock passes their end. `silentSpeech` "says" a sentence in the time its words take at 150 a minute
 * (replay-script.ts) and `TimelineTrack` keeps time without encoding anything: no media is served for such a call.
 */
import type { CallAudioTrack, HlsSegmentInfo, SpeechClip, SpeechEngine } from "../audio/types";
import { REPLAY_MS_PER_WORD, replaySpeechMs } from "./replay-script";

/** One sample per millisecond is all a timeline needs. */
const SAMPLE_RATE = 1000;
const SEGMENT_MS = 2000;

export const silentSpeech: SpeechEngine = {
  voices: ["silent"],
  sampleRate: SAMPLE_RATE,
  synthesize(text): Promise<SpeechClip> {
    const words = text.split(/\s+/).filter((w) => w !== "");
    const durationMs = replaySpeechMs(text);
    return Promise.resolve({
      samples: new Int16Array(durationMs),
      sampleRate: SAMPLE_RATE,
      words: words.map((word, i) => ({
        text: word,
        startMs: i * REPLAY_MS_PER_WORD,
        endMs: (i + 1) * REPLAY_MS_PER_WORD,
      })),
    });
  },
};

export class TimelineTrack implements CallAudioTrack {
  readonly sampleRate = SAMPLE_RATE;
  durationMs = 0;
  isFinished = false;
  readonly publishedSegments: HlsSegmentInfo[] = [];

  append(samples: Int16Array): { startMs: number; endMs: number } {
    return this.appendSilence(samples.length);
  }

  appendSilence(ms: number): { startMs: number; endMs: number } {
    const startMs = this.durationMs;
    this.durationMs += Math.max(0, Math.round(ms));
    return { startMs, endMs: this.durationMs };
  }

  publishUntil(untilMs: number): HlsSegmentInfo[] {
    const limit = this.isFinished ? this.durationMs : Math.min(untilMs, this.durationMs);
    const published: HlsSegmentInfo[] = [];
    for (;;) {
      const startMs = this.publishedSegments.length * SEGMENT_MS;
      const durationMs = Math.min(SEGMENT_MS, this.durationMs - startMs);
      if (durationMs <= 0 || startMs + durationMs > limit) break;
      if (durationMs < SEGMENT_MS && !this.isFinished) break;
      const segment = { index: this.publishedSegments.length, startMs, durationMs };
      this.publishedSegments.push(segment);
      published.push(segment);
    }
    return published;
  }

  finish(): void {
    this.isFinished = true;
  }

  playlist(): string {
    throw new Error("a replay without audio has no playlist");
  }

  segment(): Buffer | undefined {
    return undefined;
  }

  mp3(): Buffer {
    throw new Error("a replay without audio has no MP3");
  }
}
