/**
 * A process holding thousands of SSE client connections for bench/relay.ts, driven over IPC. Raw `net` sockets keep
 * the per-connection cost low (no parser, no EventSource): a connection counts `event: sentence` occurrences in what
 * it reads; one in `sampleEvery` also decodes each sentence's publish time (`bench <seq> <ms>`) for latency.
 *
 * Messages in:  {type:"connect", port, path, count, localAddresses}   → {type:"connected", ok, failed, errors}
 *               {type:"measure"} (counters to zero)
 *               {type:"report"}                                       → {type:"report", deliveries, latencies, closed}
 *               {type:"close"}
 */
import { connect, type Socket } from "node:net";

interface ConnectMessage {
  type: "connect";
  port: number;
  path: string;
  count: number;
  localAddresses: string[];
  sampleEvery: number;
}
type Message = ConnectMessage | { type: "measure" } | { type: "report" } | { type: "close" };

const MARKER = Buffer.from("event: sentence");
const sockets: Socket[] = [];
let deliveries = 0;
let closed = 0;
let latencies: number[] = [];

function countMarkers(chunk: Buffer): number {
  let n = 0;
  let at = chunk.indexOf(MARKER);
  while (at !== -1) {
    n += 1;
    at = chunk.indexOf(MARKER, at + MARKER.length);
  }
  return n;
}

const SAMPLE = /bench \d+ (\d+)/g;

function open(message: ConnectMessage, index: number): Promise<boolean> {
  return new Promise((resolve) => {
    const localAddress = message.localAddresses[index % message.localAddresses.length];
    const socket = connect({ host: "127.0.0.1", port: message.port, localAddress });
    const sampled = index % message.sampleEvery === 0;
    let settled = false;
    const settle = (ok: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(ok);
    };
    const timer = setTimeout(() => {
      socket.destroy();
      settle(false);
    }, 60_000);
    socket.setNoDelay(true);
    socket.on("connect", () => {
      socket.write(
        `GET ${message.path} HTTP/1.1\r\nHost: 127.0.0.1:${message.port}\r\nAccept: text/event-stream\r\n\r\n`,
      );
    });
    socket.on("data", (chunk: Buffer) => {
      if (!settled) {
        // The status line arrives first; the preamble (`retry:`) shows the stream is attached to the hub.
        settle(chunk.subarray(0, 12).toString("latin1").includes(" 200"));
        if (!chunk.includes("event:")) return;
      }
      deliveries += countMarkers(chunk);
      if (sampled) {
        const now = Date.now();
        for (const m of chunk.toString("latin1").matchAll(SAMPLE)) latencies.push(now - Number(m[1]));
      }
    });
    socket.on("error", () => settle(false));
    socket.on("close", () => {
      closed += 1;
      settle(false);
    });
    sockets.push(socket);
  });
}

async function connectAll(message: ConnectMessage): Promise<void> {
  let ok = 0;
  let failed = 0;
  let next = 0;
  // A bounded number of handshakes in flight: a listen backlog overflow would only measure SYN retries.
  const lanes = Array.from({ length: 64 }, async () => {
    while (next < message.count) {
      const index = next++;
      if (await open(message, index)) ok += 1;
      else failed += 1;
    }
  });
  await Promise.all(lanes);
  process.send!({ type: "connected", ok, failed });
}

process.on("message", (message: Message) => {
  switch (message.type) {
    case "connect":
      void connectAll(message);
      return;
    case "measure":
      deliveries = 0;
      latencies = [];
      return;
    case "report":
      process.send!({ type: "report", deliveries, latencies, closed });
      return;
    case "close":
      for (const s of sockets) s.destroy();
      setTimeout(() => process.exit(0), 100);
      return;
  }
});
process.on("disconnect", () => process.exit(0));
