/**
 * When the upstream sent each live sentence: a second WebSocket client of the embedded service (key `bench`,
 * subscribed to `*`, beside the app's own connection). The service sends one frame to every subscriber in the same
 * tick, and loopback adds well under a millisecond, so "received here" stands for "sent to the app".
 */
import { WebSocket } from "ws";

export interface SentFrame {
  callId: string;
  text: string;
  sentAt: number;
}

export interface UpstreamSentences {
  readonly sent: SentFrame[];
  close(): void;
}

export async function watchUpstreamSentences(embeddedUrl: string): Promise<UpstreamSentences> {
  const sent: SentFrame[] = [];
  const ws = new WebSocket(`${embeddedUrl.replace(/^http/, "ws")}/api/v1/transcripts/stream?token=bench`);
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  ws.on("message", (raw) => {
    const at = Date.now();
    let frame: unknown;
    try {
      frame = JSON.parse(String(raw));
    } catch {
      return;
    }
    const f = frame as { call_id?: unknown; sentence?: unknown };
    if (typeof f.call_id === "string" && typeof f.sentence === "string")
      sent.push({ callId: f.call_id, text: f.sentence, sentAt: at });
  });
  ws.send(JSON.stringify({ action: "subscribe", ticker: "*" }));
  return { sent, close: () => ws.close() };
}
