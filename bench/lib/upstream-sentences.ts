/**
 * When the upstream sent each live sentence: a second WebSocket client of the embedded service (key `bench`,
 * subscribed to `*`, beside the app's own connection). The service sends one frame to every subscriber in the same
 * tick, and loopback adds well under a millisecond, so "received here" stands for "sent to the app". The client runs
 * on its own thread (upstream-sentences-worker.mjs) so that the benchmark's own work never delays the timestamp.
 */
import { Worker } from "node:worker_threads";

export interface SentFrame {
  callId: string;
  text: string;
  sentAt: number;
}

export interface UpstreamSentences {
  readonly sent: SentFrame[];
  close(): void;
}

type WorkerMessage =
  { type: "open" } | { type: "error"; message: string } | ({ type: "sentence" } & SentFrame);

export async function watchUpstreamSentences(embeddedUrl: string): Promise<UpstreamSentences> {
  const sent: SentFrame[] = [];
  const worker = new Worker(new URL("./upstream-sentences-worker.mjs", import.meta.url), {
    workerData: { url: `${embeddedUrl.replace(/^http/, "ws")}/api/v1/transcripts/stream?token=bench` },
  });
  await new Promise<void>((resolve, reject) => {
    worker.on("message", (message: WorkerMessage) => {
      if (message.type === "open") resolve();
      else if (message.type === "error") reject(new Error(`upstream stream: ${message.message}`));
      else sent.push({ callId: message.callId, text: message.text, sentAt: message.sentAt });
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
