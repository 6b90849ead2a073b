/**
 * `CallAudioTrack`: one call's PCM timeline, encoded to MP3 as it grows and cut into packed-audio HLS segments.
 *
 * - Encoding: `@breezystack/lamejs` (the ESM fork; plain `lamejs` is broken on Node 20), mono, 48 kbps, at the
 *   timeline's sample rate (22 050 Hz → MPEG-2 Layer III, 576-sample frames of 26.12 ms). `append` only queues
 *   PCM; `publishUntil` encodes what its segments need, so the work follows the clock in small steps.
 * - Segments: `FRAMES_PER_SEGMENT` = 76 whole frames = 1.985 s (≤ TARGETDURATION 2, as RFC 8216 requires after
 *   rounding), each prefixed with the ID3 PRIV `transportStreamTimestamp` of its first sample. The last segment
 *   (at `finish()`) holds what is left and may be shorter.
 * - Encoder delay: an MP3 decoder that knows nothing of the encoder (HLS packed audio, MSE, ffmpeg without a LAME
 *   tag) plays `ENCODER_DELAY_SAMPLES` (576 encoder + 529 decoder = 1 105 samples, 50 ms) before the first input
 *   sample. The track therefore drops the first 1 105 samples of the timeline before the encoder: the decoded
 *   stream lines up with the timeline sample for sample (measured with ffmpeg in the tests: offset 0), so frame k
 *   is timeline samples [576k, 576k + 576) and segment times, `append` spans and word timings agree. The dropped
 *   50 ms are the call's opening silence (the caller starts with `appendSilence`); were they speech, only they
 *   would be lost. A decoder that itself trims its 529-sample delay would hear everything 24 ms early.
 * - Publishing: a segment is published when its end is ≤ `untilMs` *and* the encoder has produced its frames.
 *   lamejs holds back about 1 600 samples (~75 ms) of input, so keep appending ahead of the clock (the next
 *   sentence or pause) for segments to publish on time; `finish()` flushes and publishes the rest.
 * - Memory: the audio is held once. While the call runs, every frame is kept (48 kbps → 6 kB/s, 4.3 MB for a
 *   12-minute call); `finish()` joins them into the MP3 file and lets the frames go. A segment's bytes (its ID3
 *   timestamp tag, then its frames) are put together when asked for, from the frames or from the file: 12 kB, far
 *   cheaper than holding every segment a second time, which is what keeping them did.
 */
import { Mp3Encoder } from "@breezystack/lamejs";
import { transportStreamTimestampTag } from "./id3";
import { Mp3FrameSplitter } from "./mp3-frames";
import type { CallAudioTrack, HlsSegmentInfo } from "./types";

export const MP3_KBPS = 48;
export const SAMPLES_PER_FRAME = 576;
export const FRAMES_PER_SEGMENT = 76;
export const ENCODER_DELAY_SAMPLES = 576 + 529;
export const TARGET_DURATION_SECONDS = 2;
/** Input lamejs needs past a frame's end before it emits the frame (measured ~1 600; rounded up). */
const ENCODER_LOOKAHEAD_SAMPLES = 2_048;
const MAX_ENCODE_SAMPLES = 22_050;

export interface CallAudioTrackOptions {
  /** Sample rate of every clip appended; the engine's (22 050 Hz for eSpeak). MPEG-2 rates keep 576-sample frames. */
  sampleRate: number;
}

interface PublishedSegment {
  info: HlsSegmentInfo;
  frameCount: number;
  /** Where its frames are in the MP3 stream, in bytes. */
  start: number;
  end: number;
}

export class Mp3CallAudioTrack implements CallAudioTrack {
  readonly sampleRate: number;
  private readonly encoder: Mp3Encoder;
  private readonly splitter = new Mp3FrameSplitter();
  private readonly frames: Buffer[] = [];
  /** The whole MP3 once finished; the frames are released then. */
  private file: Buffer | null = null;
  private readonly published: PublishedSegment[] = [];
  private readonly infos: HlsSegmentInfo[] = [];
  private totalSamples = 0;
  private delayToDrop = ENCODER_DELAY_SAMPLES;
  /** Appended PCM not encoded yet (the encoder delay already dropped), oldest first. */
  private readonly unencoded: Int16Array[] = [];
  /** Timeline samples dealt with: dropped as encoder delay or handed to the encoder. */
  private encodedUpTo = 0;
  private finished = false;

  constructor(options: CallAudioTrackOptions) {
    if (![22_050, 24_000, 16_000].includes(options.sampleRate)) {
      throw new Error(
        `unsupported sample rate ${options.sampleRate}: use an MPEG-2 rate (22050, 24000, 16000)`,
      );
    }
    this.sampleRate = options.sampleRate;
    this.encoder = new Mp3Encoder(1, options.sampleRate, MP3_KBPS);
  }

  private ms(samples: number): number {
    return (samples * 1000) / this.sampleRate;
  }

  get durationMs(): number {
    return Math.round(this.ms(this.totalSamples));
  }

  get isFinished(): boolean {
    return this.finished;
  }

  get publishedSegments(): readonly HlsSegmentInfo[] {
    return this.infos;
  }

  append(samples: Int16Array): { startMs: number; endMs: number } {
    if (this.finished) throw new Error("the track is finished");
    const start = this.totalSamples;
    this.totalSamples += samples.length;
    let input = samples;
    if (this.delayToDrop > 0) {
      const dropped = Math.min(this.delayToDrop, input.length);
      this.delayToDrop -= dropped;
      this.encodedUpTo += dropped;
      input = input.subarray(dropped);
    }
    // A copy: the caller may reuse its buffer before the samples are encoded.
    if (input.length > 0) this.unencoded.push(input.slice());
    // Spans come from sample counts, so consecutive spans are contiguous and never drift from the audio.
    return { startMs: Math.round(this.ms(start)), endMs: Math.round(this.ms(this.totalSamples)) };
  }

  appendSilence(ms: number): { startMs: number; endMs: number } {
    const count = Math.max(0, Math.round((ms * this.sampleRate) / 1000));
    return this.append(new Int16Array(count));
  }

  /**
   * Encodes appended audio up to timeline sample `until`. Encoding lazily, from `publishUntil`, spreads the work
   * over wall-clock time (~5 ms per call and 250 ms tick) instead of blocking the event loop for a whole sentence
   * (~100 ms) on `append`.
   */
  private encodeUpTo(until: number): void {
    while (this.encodedUpTo < until && this.unencoded.length > 0) {
      const chunk = this.unencoded[0]!;
      const take = Math.min(chunk.length, until - this.encodedUpTo, MAX_ENCODE_SAMPLES);
      this.frames.push(...this.splitter.push(this.encoder.encodeBuffer(chunk.subarray(0, take))));
      this.encodedUpTo += take;
      if (take === chunk.length) this.unencoded.shift();
      else this.unencoded[0] = chunk.subarray(take);
    }
  }

  private segmentSpan(index: number, frameCount: number): HlsSegmentInfo {
    const startSample = index * FRAMES_PER_SEGMENT * SAMPLES_PER_FRAME;
    return {
      index,
      startMs: this.ms(startSample),
      durationMs: this.ms(frameCount * SAMPLES_PER_FRAME),
    };
  }

  private publishSegment(frameCount: number): HlsSegmentInfo {
    const index = this.published.length;
    const info = this.segmentSpan(index, frameCount);
    const firstFrame = index * FRAMES_PER_SEGMENT;
    const start = this.published.at(-1)?.end ?? 0;
    let end = start;
    for (let f = firstFrame; f < firstFrame + frameCount; f++) end += this.frames[f]!.length;
    this.published.push({ info, frameCount, start, end });
    this.infos.push(info);
    return info;
  }

  encodeAhead(untilMs: number): void {
    if (this.finished) return;
    this.encodeUpTo(Math.min(this.totalSamples, Math.floor((untilMs * this.sampleRate) / 1000)));
  }

  publishUntil(untilMs: number): HlsSegmentInfo[] {
    if (this.finished) return [];
    const out: HlsSegmentInfo[] = [];
    for (;;) {
      const index = this.published.length;
      const framesNeeded = (index + 1) * FRAMES_PER_SEGMENT;
      const info = this.segmentSpan(index, FRAMES_PER_SEGMENT);
      const endSample = framesNeeded * SAMPLES_PER_FRAME;
      if (endSample > this.totalSamples || info.startMs + info.durationMs > untilMs) break;
      this.encodeUpTo(Math.min(this.totalSamples, endSample + ENCODER_LOOKAHEAD_SAMPLES));
      if (this.frames.length < framesNeeded) break;
      out.push(this.publishSegment(FRAMES_PER_SEGMENT));
    }
    return out;
  }

  finish(): void {
    if (this.finished) return;
    this.encodeUpTo(this.totalSamples);
    this.frames.push(...this.splitter.push(this.encoder.flush()));
    // lamejs pads the end up to whole frames; frames past the timeline's end carry only padding.
    const framesForTimeline = Math.ceil(this.totalSamples / SAMPLES_PER_FRAME);
    if (this.frames.length > framesForTimeline) this.frames.length = framesForTimeline;
    while (this.published.length * FRAMES_PER_SEGMENT < this.frames.length) {
      const remaining = this.frames.length - this.published.length * FRAMES_PER_SEGMENT;
      this.publishSegment(Math.min(FRAMES_PER_SEGMENT, remaining));
    }
    this.file = Buffer.concat(this.frames);
    this.frames.length = 0;
    this.finished = true;
  }

  playlist(segmentUri: (index: number) => string): string {
    const lines = [
      "#EXTM3U",
      "#EXT-X-VERSION:3",
      `#EXT-X-TARGETDURATION:${TARGET_DURATION_SECONDS}`,
      "#EXT-X-MEDIA-SEQUENCE:0",
      "#EXT-X-PLAYLIST-TYPE:EVENT",
    ];
    for (const { info } of this.published) {
      lines.push(`#EXTINF:${(info.durationMs / 1000).toFixed(5)},`, segmentUri(info.index));
    }
    if (this.finished) lines.push("#EXT-X-ENDLIST");
    return `${lines.join("\n")}\n`;
  }

  segment(index: number): Buffer | undefined {
    const segment = this.published[index];
    if (!segment) return undefined;
    const startSample = index * FRAMES_PER_SEGMENT * SAMPLES_PER_FRAME;
    const tag = transportStreamTimestampTag((startSample * 90_000) / this.sampleRate);
    if (this.file) return Buffer.concat([tag, this.file.subarray(segment.start, segment.end)]);
    const firstFrame = index * FRAMES_PER_SEGMENT;
    return Buffer.concat([tag, ...this.frames.slice(firstFrame, firstFrame + segment.frameCount)]);
  }

  mp3(): Buffer {
    if (!this.file) throw new Error("mp3() is only available once the track is finished");
    return this.file;
  }
}

export function createMp3CallAudioTrack(options: CallAudioTrackOptions): CallAudioTrack {
  return new Mp3CallAudioTrack(options);
}
