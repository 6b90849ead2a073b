/**
 * A `CallAudioTrack` that only keeps time: no encoding, no bytes. Historical calls are first built with it to get
 * their segment times from the speech engine at a seventh of the cost of encoding (MP3 encoding dominates a
 * build); the audio itself is built later, only when someone asks for it, with the same deterministic timeline.
 */
import type { CallAudioTrack, HlsSegmentInfo } from "./audio/types";

export function createTimingTrack(sampleRate: number): CallAudioTrack {
  let samples = 0;
  let finished = false;
  const ms = () => (samples / sampleRate) * 1000;
  const add = (count: number) => {
    const startMs = ms();
    samples += count;
    return { startMs, endMs: ms() };
  };
  return {
    sampleRate,
    get durationMs() {
      return ms();
    },
    append: (clip) => add(clip.length),
    appendSilence: (length) => add(Math.round((length / 1000) * sampleRate)),
    publishUntil: (): HlsSegmentInfo[] => [],
    finish: () => {
      finished = true;
    },
    get isFinished() {
      return finished;
    },
    publishedSegments: [],
    playlist: () => "",
    segment: () => undefined,
    mp3: () => Buffer.alloc(0),
  };
}
