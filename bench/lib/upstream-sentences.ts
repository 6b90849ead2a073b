/**
 * When the upstream sent each live sentence: a second WebSocket client of the embedded service (key `bench`,
 * subscribed to `*`, beside the app's own connection). "Sent" is the frame's `created_time`: the embedded service
 * stamps a sentence when it releases it and hands the frame to every subscriber in that same tick
 * (embedded/live/call.ts `release`), with millisecond precision and the clock the browser's timestamps use.
 * The time this client received the frame is kept too: it is later by loopback plus however long this process was
 * not scheduled, which under load reached tens of milliseconds, so it only stands in when a frame has no
 * `created_time`. The client runs on its own thread (upstream-sentences-worker.mjs).
 */
import { Worker } from "node:worker_threads";

export interface SentFrame {
  callId: string;
  text: string;
  /** The upstream's send time (its `created_time`), ms since the epoch. */
  sentAt: number;
  /** When this client received the frame. */
  receivedAt: number;
}

export interface UpstreamSentences {
  readonly sent: SentFrame[];
  close(): void;
}

type WorkerMessage =
  | { type: "open" }
  | { type: "error"; message: string }
  | { type: "sentence"; callId: string; text: string; createdAt: number; receivedAt: number };

export async function watchUpstreamSentences(embeddedUrl: string): Promise<UpstreamSentences> {
  const sent: SentFrame[] = [];
  const worker = new Worker(new URL("./upstream-sentences-worker.mjs", import.meta.url), {
    workerData: { url: `${embeddedUrl.replace(/^http/, "ws")}/api/v1/transcripts/stream?token=bench` },
  });
  await new Promise<void>((resolve, reject) => {
    worker.on("message", (message: WorkerMessage) => {
      if (message.type === "open") resolve();
      else if (message.type === "error") reject(new Error(`upstream stream: ${message.message}`));
      else
        sent.push({
          callId: message.callId,
          text: message.text,
          sentAt: Number.isFinite(message.createdAt) ? message.createdAt : message.receivedAt,
          receivedAt: message.receivedAt,
        });
    });
    worker.once("error", reject);
  });
  return {
    sent,
    close: () => {
      worker.postMessage("close");
      void worker.terminate();
    },
  };
}
