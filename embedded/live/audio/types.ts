/**
 * Speech and live-audio interfaces of the embedded service (docs/upstream.md §5, §7).
 * The speech engine is behind `SpeechEngine` because espeak-ng is GPL: another engine must be able to replace it
 * without touching call logic.
 */

/** A voice the engine can speak with; distinct speakers get distinct voices. */
export type VoiceId = string;

export interface WordTiming {
  /** The word as written in the input text (punctuation kept: `"$4.2"`, `"billion,"`); words joined by spaces give the text back. */
  text: string;
  /** Milliseconds from the start of the clip. */
  startMs: number;
  endMs: number;
}

export interface SpeechClip {
  /**
   * Mono 16-bit PCM, trimmed to the speech with ~20 ms of silence either side: pauses are the caller's
   * (`appendSilence`). Empty for text with nothing to say.
   */
  samples: Int16Array;
  sampleRate: number;
  /**
   * One entry per whitespace-separated word of the input text, in order, within [0, clip duration]. Estimated
   * from the audio (pauses, then syllables), not reported by the engine: expect ±100 ms per word.
   */
  words: WordTiming[];
}

export interface SpeechEngine {
  /** Voices in a stable order; `voices[i % voices.length]` gives speaker i a distinct voice. */
  readonly voices: readonly VoiceId[];
  readonly sampleRate: number;
  /**
   * Speaks `text` as written in a transcript: figures in digits (`$1.99`, `$4.2 billion`, `12%`, `Q3 2026`) are
   * read as words. Calls are queued (one at a time); ~20–40 ms of CPU per sentence.
   */
  synthesize(text: string, voice: VoiceId): Promise<SpeechClip>;
}

export interface HlsSegmentInfo {
  index: number; // 0-based media sequence number
  startMs: number; // on the call timeline; exact (fractional) ms, as segments hold whole 26.12 ms MP3 frames
  durationMs: number; // exact (fractional) ms; 1985.3 ms for every segment but the last
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
  /**
   * Append a clip (already including any pause after it). Returns the clip's span on the call timeline in whole
   * ms, computed from sample counts: one call's spans are contiguous (next `startMs` = previous `endMs`).
   */
  append(samples: Int16Array): { startMs: number; endMs: number };
  /** Append silence of the given length (e.g. before the first sentence, between speakers). */
  appendSilence(ms: number): { startMs: number; endMs: number };
  /**
   * Publish every complete ~2 s segment that ends at or before `untilMs` of the timeline; returns those newly
   * published. A sentence is sent on the WebSocket once the segment holding its end is published.
   * The encoder holds back ~75 ms of input, so a segment is published only once audio ~0.1 s past its end has been
   * appended: append the next sentence or pause ahead of the clock. Returns [] once finished.
   */
  publishUntil(untilMs: number): HlsSegmentInfo[];
  /**
   * Optional: encode appended audio up to `untilMs` of the timeline without publishing anything, so that a live
   * caller ticking every ~100 ms spreads the MP3 work in small steps instead of one ~2 s segment at a time.
   */
  encodeAhead?(untilMs: number): void;
  /**
   * Seal the track: the remaining audio becomes the last segment(s) and the playlist gets `#EXT-X-ENDLIST`.
   * Segments published here are not returned anywhere else: read them from `publishedSegments`. Idempotent.
   */
  finish(): void;
  readonly isFinished: boolean;
  readonly publishedSegments: readonly HlsSegmentInfo[];
  /** Media playlist (EVENT type, TARGETDURATION 2); `segmentUri(index)` builds each segment's (signed) URI. */
  playlist(segmentUri: (index: number) => string): string;
  /** Bytes of a published segment (MP3 packed audio with the ID3 PRIV transportStreamTimestamp tag). */
  segment(index: number): Buffer | undefined;
  /** The whole call as one MP3 file (48 kbps mono frames back to back, no tags); throws before `finish()`. */
  mp3(): Buffer;
}
