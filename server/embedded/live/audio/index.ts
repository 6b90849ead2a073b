/**
 * Entry point of the embedded service's speech and call audio (upstream-contract §5, §7). Call logic uses only
 * these factories and the interfaces in `./types`, never the eSpeak or lamejs modules directly.
 */
import { createMp3CallAudioTrack, type CallAudioTrackOptions } from "./call-audio-track";
import { EspeakEngine, ESPEAK_SAMPLE_RATE } from "./espeak-engine";
import type { CallAudioTrack, SpeechEngine } from "./types";

export type * from "./types";
export { speakable } from "./speakable";

/**
 * The speech engine (eSpeak NG via WASM). Takes ~0.7 s once (compiling the 18 MB module); create it once per
 * process and share it: calls are serialised inside.
 */
export async function createSpeechEngine(): Promise<SpeechEngine> {
  return EspeakEngine.create();
}

/** A call's audio track; `sampleRate` defaults to the speech engine's (22 050 Hz). */
export function createCallAudioTrack(options: Partial<CallAudioTrackOptions> = {}): CallAudioTrack {
  return createMp3CallAudioTrack({ sampleRate: options.sampleRate ?? ESPEAK_SAMPLE_RATE });
}
