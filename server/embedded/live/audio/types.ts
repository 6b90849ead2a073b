/**
 * Speech and live-audio interfaces of the embedded service (upstream-contract §5, §7).
 * The speech engine is behind `SpeechEngine` because espeak-ng is GPL: another engine must be able to replace it
 * without touching call logic.
 */

/** A voice the engine can speak with; distinct speakers get distinct voices. */
export type VoiceId = string;

export interface WordTiming {
  text: string;
  /** Milliseconds from the start of the clip. */
  startMs: number;
  endMs: number;
}

export interface SpeechClip {
  /** Mono 16-bit PCM. */
  samples: Int16Array;
  sampleRate: number;
  /** One entry per spoken word of the input text, in order, within [0, clip duration]. */
  words: WordTiming[];
}

export interface SpeechEngine {
  /** Voices in a stable order; `voices[i % voices.length]` gives speaker i a distinct voice. */
  readonly voices: readonly VoiceId[];
  readonly sampleRate: number;
  synthesize(text: string, voice: VoiceId): Promise<SpeechClip>;
}

export interface HlsSegmentInfo {
  index: number; // 0-based media sequence number
  startMs: number; // on the call timeline
  durationMs: number;
}

/**
 * One call's audio: a growing timeline of PCM that is encoded to MP3 and cut into ~2 s packed-audio HLS segments.
 * The timeline is the call's clock: `append` returns where a clip sits on it, so transcript segment times
 * (`start_ms`, `end_ms`, word timings) match the audio exactly.
 */
export interface CallAudioTrack {
  readonly sampleRate: number;
  /** Total audio appended so far, in ms. */
  readonly durationMs: number;
  /** Append a clip (already including any pause after it). Returns the clip's span on the call timeline. */
  append(samples: Int16Array): { startMs: number; endMs: number };
  /** Append silence of the given length (e.g. before the first sentence, between speakers). */
  appendSilence(ms: number): { startMs: number; endMs: number };
  /**
   * Publish every complete ~2 s segment that ends at or before `untilMs` of the timeline; returns those newly
   * published. A sentence is sent on the WebSocket once the segment holding its end is published.
   */
  publishUntil(untilMs: number): HlsSegmentInfo[];
  /** Seal the track: the remaining audio becomes the last segment(s) and the playlist gets `#EXT-X-ENDLIST`. */
  finish(): void;
  readonly isFinished: boolean;
  readonly publishedSegments: readonly HlsSegmentInfo[];
  /** Media playlist (EVENT type, TARGETDURATION 2); `segmentUri(index)` builds each segment's (signed) URI. */
  playlist(segmentUri: (index: number) => string): string;
  /** Bytes of a published segment (MP3 packed audio with the ID3 PRIV transportStreamTimestamp tag). */
  segment(index: number): Buffer | undefined;
  /** The whole call as one MP3 file; only after `finish()`. */
  mp3(): Buffer;
}
