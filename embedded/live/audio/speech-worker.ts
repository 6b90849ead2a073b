/**
 * Worker thread owning the eSpeak WASM instance (see `worker-speech-engine.ts`): synthesis costs ~50–100 ms of CPU
 * per sentence, which on the main thread would stall every request and WebSocket of the service meanwhile.
 * Protocol: `{ id, text, voice }` in; `{ id, samples (transferred ArrayBuffer), sampleRate, words }` or
 * `{ id, error }` out. The first message out is `{ ready, voices, sampleRate }` (or `{ failed }`).
 */
import { parentPort } from "node:worker_threads";
import { EspeakEngine } from "./espeak-engine";

export interface SpeechRequest {
  id: number;
  text: string;
  voice: string;
}

export type SpeechReply =
  | { type: "ready"; voices: string[]; sampleRate: number }
  | { type: "failed"; message: string }
  | {
      type: "clip";
      id: number;
      samples: ArrayBuffer;
      sampleRate: number;
      words: { text: string; startMs: number; endMs: number }[];
    }
  | { type: "error"; id: number; message: string };

const port = parentPort;
if (port) {
  const post = (reply: SpeechReply, transfer: ArrayBuffer[] = []) => port.postMessage(reply, transfer);
  EspeakEngine.create().then(
    (engine) => {
      port.on("message", (request: SpeechRequest) => {
        engine.synthesize(request.text, request.voice).then(
          (clip) => {
            // Transfer needs a buffer of its own: copy a view into a larger one (never the case today, but cheap).
            const own =
              clip.samples.byteOffset === 0 && clip.samples.byteLength === clip.samples.buffer.byteLength
                ? clip.samples
                : clip.samples.slice();
            const buffer = own.buffer as ArrayBuffer;
            post(
              {
                type: "clip",
                id: request.id,
                samples: buffer,
                sampleRate: clip.sampleRate,
                words: clip.words,
              },
              [buffer],
            );
          },
          (error: unknown) =>
            post({
              type: "error",
              id: request.id,
              message: error instanceof Error ? error.message : String(error),
            }),
        );
      });
      post({ type: "ready", voices: [...engine.voices], sampleRate: engine.sampleRate });
    },
    (error: unknown) =>
      post({ type: "failed", message: error instanceof Error ? error.message : String(error) }),
  );
}
