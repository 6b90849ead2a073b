/**
 * Entry point of the embedded service's speech and call audio (docs/upstream.md §5, §7). Call logic uses only
 * these factories and the interfaces in `./types`, never the eSpeak or lamejs modules directly.
 */
import { createMp3CallAudioTrack, type CallAudioTrackOptions } from "./call-audio-track";
import type { CallAudioTrack, SpeechEngine } from "./types";
import { WorkerSpeechEngine } from "./worker-speech-engine";

export type * from "./types";
export { speakable } from "./speakable";

/** eSpeak's output rate (kept here so the main thread never loads the eSpeak module, see below). */
export const SPEECH_SAMPLE_RATE = 22_050;

/**
 * The speech engine (eSpeak NG via WASM) in a worker thread, so synthesis never blocks the event loop. Takes
 * ~0.7 s once (starting the worker, compiling the 18 MB module); create it once per process and share it: calls
 * are serialised inside. Should the worker not start, eSpeak runs on this thread instead (slower for everyone
 * else, but calls still speak). `inThread` asks for that directly (comparisons, or a platform without workers).
 */
export async function createSpeechEngine(options: { inThread?: boolean } = {}): Promise<SpeechEngine> {
  if (options.inThread) {
    const { EspeakEngine } = await import("./espeak-engine");
    return EspeakEngine.create();
  }
  try {
    return await WorkerSpeechEngine.create();
  } catch (error) {
    console.error("[embedded/live] speech worker unavailable, synthesizing on the main thread:", error);
    const { EspeakEngine } = await import("./espeak-engine");
    return EspeakEngine.create();
  }
}

/** Stops a speech engine's worker, if it has one. */
export async function closeSpeechEngine(engine: SpeechEngine): Promise<void> {
  if (engine instanceof WorkerSpeechEngine) await engine.close();
}

/** A call's audio track; `sampleRate` defaults to the speech engine's (22 050 Hz). */
export function createCallAudioTrack(options: Partial<CallAudioTrackOptions> = {}): CallAudioTrack {
  return createMp3CallAudioTrack({ sampleRate: options.sampleRate ?? SPEECH_SAMPLE_RATE });
}
