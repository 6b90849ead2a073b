/**
 * `SpeechEngine` whose synthesis runs in a worker thread (`speech-worker.ts`), so the event loop of the service
 * stays free while a sentence is spoken. Same output as `EspeakEngine` (the worker runs it), so determinism holds.
 *
 * The worker is a `.ts` file, so it needs tsx. On Node 20 `execArgv: ["--import", "tsx"]` does not reach the
 * worker's own entry module (ERR_UNKNOWN_FILE_EXTENSION), so a small eval'd bootstrap registers tsx in the worker
 * first and then loads the entry: this works under `node --import tsx` (the launcher) and under Vitest alike.
 * It registers tsx's CommonJS hooks, not its ESM ones: on Node 20 ESM hooks run in a thread of their own, a third
 * V8 isolate for the speech engine alone, ~34 MB of the process's memory (docs/embedded-history.md, "Measured").
 * The worker is unref'd (it never keeps the process alive) and replaced on the next request if it dies; requests
 * in flight then fail, and the call skips the sentence.
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { SpeechReply, SpeechRequest } from "./speech-worker";
import type { SpeechClip, SpeechEngine, VoiceId } from "./types";

interface Pending {
  resolve: (clip: SpeechClip) => void;
  reject: (error: Error) => void;
}

interface Ready {
  voices: string[];
  sampleRate: number;
}

function spawn(): { worker: Worker; ready: Promise<Ready> } {
  const tsxCjs = createRequire(import.meta.url).resolve("tsx/cjs/api");
  const entry = fileURLToPath(new URL("./speech-worker.ts", import.meta.url));
  // tsx turns on source maps, and Node then keeps every loaded module's map decoded: 30 MB of heap for the
  // worker's modules (mostly espeak-ng.js), for stack traces the worker only ever sends back as messages.
  const bootstrap = `require(${JSON.stringify(tsxCjs)}).register(); process.setSourceMapsEnabled(false); require(${JSON.stringify(entry)});`;
  const worker = new Worker(bootstrap, {
    eval: true,
    stdout: false,
    stderr: false,
    // The worker holds little JS (a sentence's PCM and word timings at a time; ~10 MB live): a small young
    // generation and a modest old-generation cap keep V8 from growing its heap far ahead of that (a lower cap
    // also lowers V8's heap growing factor). Running out ends the worker like a crash: the next request gets a new one.
    resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 256 },
  });
  worker.unref();
  const ready = new Promise<Ready>((resolve, reject) => {
    const onMessage = (reply: SpeechReply) => {
      if (reply.type === "ready") resolve({ voices: reply.voices, sampleRate: reply.sampleRate });
      else if (reply.type === "failed") reject(new Error(`speech worker: ${reply.message}`));
      else return;
      worker.off("message", onMessage);
    };
    worker.on("message", onMessage);
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`speech worker exited (${code}) before it was ready`)));
  });
  return { worker, ready };
}

export class WorkerSpeechEngine implements SpeechEngine {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  private closed = false;

  private constructor(
    readonly voices: readonly VoiceId[],
    readonly sampleRate: number,
  ) {}

  static async create(): Promise<WorkerSpeechEngine> {
    const { worker, ready } = spawn();
    let info: Ready;
    try {
      info = await ready;
    } catch (error) {
      void worker.terminate();
      throw error;
    }
    const engine = new WorkerSpeechEngine(info.voices, info.sampleRate);
    engine.adopt(worker);
    return engine;
  }

  private adopt(worker: Worker): void {
    this.worker = worker;
    worker.on("message", (reply: SpeechReply) => {
      if (reply.type !== "clip" && reply.type !== "error") return;
      const pending = this.pending.get(reply.id);
      if (!pending) return;
      this.pending.delete(reply.id);
      if (reply.type === "error") pending.reject(new Error(reply.message));
      else
        pending.resolve({
          samples: new Int16Array(reply.samples),
          sampleRate: reply.sampleRate,
          words: reply.words,
        });
    });
    const lost = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
    };
    worker.on("error", (error) => lost(error));
    worker.on("exit", (code) => lost(new Error(`speech worker exited (${code})`)));
    // Requests in flight keep the process alive, an idle worker does not.
  }

  synthesize(text: string, voice: VoiceId): Promise<SpeechClip> {
    if (this.closed) return Promise.reject(new Error("speech engine closed"));
    if (!this.worker) {
      const { worker } = spawn();
      this.adopt(worker);
    }
    const worker = this.worker as Worker;
    const id = this.nextId++;
    return new Promise<SpeechClip>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const request: SpeechRequest = { id, text, voice };
      worker.postMessage(request);
    });
  }

  /** Stops the worker; pending requests fail. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }
}
