// The WebSocket client of bench/lib/upstream-sentences.ts, on a thread of its own: the time a frame arrives is taken
// here, on an event loop that does nothing else, not on the benchmark's main thread, which drives Chromium and can
// be busy for tens of milliseconds when a frame comes in. The frame's own `created_time` (the upstream's clock when
// it released the sentence, on this machine) is passed on beside it.
import { parentPort, workerData } from "node:worker_threads";
import { WebSocket } from "ws";

const ws = new WebSocket(workerData.url);
ws.once("open", () => {
  ws.send(JSON.stringify({ action: "subscribe", ticker: "*" }));
  parentPort.postMessage({ type: "open" });
});
ws.once("error", (error) => parentPort.postMessage({ type: "error", message: String(error) }));
ws.on("message", (raw) => {
  const receivedAt = Date.now();
  let frame;
  try {
    frame = JSON.parse(String(raw));
  } catch {
    return;
  }
  if (typeof frame?.call_id === "string" && typeof frame?.sentence === "string")
    parentPort.postMessage({
      type: "sentence",
      callId: frame.call_id,
      text: frame.sentence,
      createdAt: typeof frame.created_time === "string" ? Date.parse(frame.created_time) : Number.NaN,
      receivedAt,
    });
});
parentPort.on("message", (message) => {
  if (message === "close") {
    ws.close();
    parentPort.close();
  }
});
