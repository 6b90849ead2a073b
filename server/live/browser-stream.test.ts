import { createServer, get, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { connect as connectSocket, type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { nodeSink, serveSse, webSink, type SseCloseReason } from "../http/sse";
import { browserStream } from "./browser-stream";
import { createBrowserFanout, type BrowserFanout, type StreamFilter } from "./fanout";
import { MemoryBus } from "./memory-bus";

/** A browser's stream as the route handler and the stream door serve it: the fan-out through the one SSE writer. */
interface StreamOptions {
  browsers: BrowserFanout;
  filter: StreamFilter;
  fromCursor: string | null;
  signal?: AbortSignal;
  heartbeatMs?: number;
  maxQueuedBytes?: number;
  onClose?: (reason: SseCloseReason) => void;
}

function createSseStream(o: StreamOptions): ReadableStream<Uint8Array> {
  const { sink, body } = webSink(o.signal, o.maxQueuedBytes);
  serveSse(sink, { ...browserStream(o.browsers, o, o.onClose), heartbeatMs: o.heartbeatMs });
  return body;
}

function serveNodeStream(res: ServerResponse, o: StreamOptions): void {
  const sink = nodeSink(res, { "content-type": "text/event-stream" }, o.maxQueuedBytes);
  serveSse(sink, { ...browserStream(o.browsers, o, o.onClose), heartbeatMs: o.heartbeatMs });
}

const A = "a".repeat(24);

async function readSome(reader: ReadableStreamDefaultReader<Uint8Array>, until: (text: string) => boolean) {
  const decoder = new TextDecoder();
  let text = "";
  while (!until(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

describe("a browser's live stream on a web stream (the route handler)", () => {
  it("streams the live bus's events, coalescing one tick's events into one chunk", async () => {
    const bus = new MemoryBus({ now: () => 9 });
    const browsers = createBrowserFanout(bus);
    const stream = createSseStream({ browsers, filter: { tickers: "*", calls: [] }, fromCursor: null });
    const reader = stream.getReader();
    const first = await readSome(reader, (t) => t.endsWith("\n\n"));
    expect(first).toBe("retry: 3000\nid: 9-0\n\n");
    bus.publish({
      event: "call.started",
      symbol: "AAA",
      data: { callId: A, symbol: "AAA", name: "A", startTime: "t" },
    });
    bus.publish({ event: "call.status", symbol: "AAA", data: { callId: A, status: "live" } });
    const { value } = await reader.read();
    const chunk = new TextDecoder().decode(value);
    expect(chunk).toContain("id: 9-1\nevent: call.started\n");
    expect(chunk).toContain("id: 9-2\nevent: call.status\n");
    await reader.cancel();
    expect(browsers.size()).toBe(0);
  });

  it("sends heartbeats as comments", async () => {
    const bus = new MemoryBus();
    const browsers = createBrowserFanout(bus);
    const stream = createSseStream({
      browsers,
      filter: { tickers: "*", calls: [] },
      fromCursor: null,
      heartbeatMs: 20,
    });
    const reader = stream.getReader();
    const text = await readSome(reader, (t) => t.includes(": heartbeat\n\n"));
    expect(text).toContain(": heartbeat\n\n");
    await reader.cancel();
  });

  it("cleans up on request abort", async () => {
    const bus = new MemoryBus();
    const browsers = createBrowserFanout(bus);
    const ac = new AbortController();
    const reasons: SseCloseReason[] = [];
    const stream = createSseStream({
      browsers,
      filter: { tickers: "*", calls: [] },
      fromCursor: null,
      signal: ac.signal,
      onClose: (r) => reasons.push(r),
    });
    const reader = stream.getReader();
    await reader.read();
    expect(browsers.size()).toBe(1);
    ac.abort();
    expect(browsers.size()).toBe(0);
    expect(reasons).toEqual(["aborted"]);
    expect((await reader.read()).done).toBe(true);
  });

  it("cleans up on stream cancel", async () => {
    const bus = new MemoryBus();
    const browsers = createBrowserFanout(bus);
    const reasons: SseCloseReason[] = [];
    const stream = createSseStream({
      browsers,
      filter: { tickers: "*", calls: [] },
      fromCursor: null,
      onClose: (r) => reasons.push(r),
    });
    await stream.cancel();
    expect(browsers.size()).toBe(0);
    expect(reasons).toEqual(["cancelled"]);
  });

  it("disconnects a consumer that stops reading once its backlog passes the cap", async () => {
    const bus = new MemoryBus();
    const browsers = createBrowserFanout(bus);
    const reasons: SseCloseReason[] = [];
    const stream = createSseStream({
      browsers,
      filter: { tickers: "*", calls: [] },
      fromCursor: null,
      maxQueuedBytes: 100_000,
      onClose: (r) => reasons.push(r),
    });
    const reader = stream.getReader();
    const text = "x".repeat(1_000);
    for (let round = 0; round < 20 && reasons.length === 0; round += 1) {
      for (let i = 0; i < 20; i += 1) {
        bus.publish({
          event: "sentence",
          symbol: "AAA",
          data: {
            callId: A,
            sequence: round * 20 + i,
            text,
            speaker: "S",
            startMs: 0,
            endMs: 0,
            confidence: 1,
          },
        });
      }
      await new Promise((r) => setImmediate(r));
    }
    expect(reasons).toEqual(["slow_consumer"]);
    expect(browsers.size()).toBe(0);
    await expect(reader.read()).rejects.toThrow(/too slow/);
  });

  it("keeps a consumer that reads, however much flows", async () => {
    const bus = new MemoryBus();
    const browsers = createBrowserFanout(bus);
    const reasons: SseCloseReason[] = [];
    const stream = createSseStream({
      browsers,
      filter: { tickers: "*", calls: [] },
      fromCursor: null,
      maxQueuedBytes: 100_000,
      onClose: (r) => reasons.push(r),
    });
    const reader = stream.getReader();
    let bytes = 0;
    const drained = (async () => {
      for (;;) {
        const r = await reader.read();
        if (r.done) return;
        bytes += r.value.byteLength;
      }
    })();
    const text = "x".repeat(1_000);
    for (let round = 0; round < 40; round += 1) {
      for (let i = 0; i < 20; i += 1) {
        bus.publish({
          event: "sentence",
          symbol: "AAA",
          data: {
            callId: A,
            sequence: round * 20 + i,
            text,
            speaker: "S",
            startMs: 0,
            endMs: 0,
            confidence: 1,
          },
        });
      }
      await new Promise((r) => setTimeout(r, 1));
    }
    await new Promise((r) => setTimeout(r, 10));
    expect(reasons).toEqual([]);
    expect(bytes).toBeGreaterThan(800_000);
    await reader.cancel();
    await drained;
  });
});

const CALL = "0123456789abcdef01234567";
let server: Server | null = null;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = null;
});

async function serve(options: StreamOptions): Promise<string> {
  server = createServer((_req, res) => serveNodeStream(res, options));
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

const connect = (url: string) => new Promise<IncomingMessage>((resolve) => get(url, resolve));

const until = async (test: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** A served stream of every call, its close reasons recorded. */
async function serveAll(options: Partial<StreamOptions> = {}) {
  const bus = new MemoryBus();
  const browsers = createBrowserFanout(bus);
  const reasons: SseCloseReason[] = [];
  const url = await serve({
    browsers,
    filter: { tickers: "*", calls: [] },
    fromCursor: null,
    onClose: (r) => reasons.push(r),
    ...options,
  });
  return { bus, browsers, reasons, res: await connect(url) };
}

describe("a browser's live stream on a Node response (the stream door)", () => {
  it("sends heartbeats from a shared timer and stops them, unsubscribing, when the client leaves", async () => {
    const { browsers, reasons, res } = await serveAll({ heartbeatMs: 20 });
    let text = "";
    res.on("data", (c: Buffer) => (text += c.toString()));
    await until(() => text.split(": heartbeat\n\n").length > 2);
    expect(browsers.size()).toBe(1);
    res.destroy();
    await until(() => reasons.length === 1);
    expect(reasons).toEqual(["aborted"]);
    expect(browsers.size()).toBe(0);
  });

  it("delivers every event intact and in order over a chunked response, multi-byte text included", async () => {
    const { bus, res } = await serveAll();
    expect(res.headers["transfer-encoding"]).toBe("chunked");
    let text = "";
    res.setEncoding("utf8");
    res.on("data", (c: string) => (text += c));
    bus.publish({
      event: "call.started",
      symbol: "AAA",
      data: { callId: CALL, symbol: "AAA", name: "A", startTime: "t" },
    });
    const lines = ["Umsatz über Plan — 12 %", "営業利益は増加", "plain ascii"];
    lines.forEach((line, sequence) =>
      bus.publish({
        event: "sentence",
        symbol: "AAA",
        data: { callId: CALL, sequence, text: line, speaker: "CFO", startMs: 0, endMs: 1, confidence: 1 },
      }),
    );
    // Node's client rejects a malformed chunk (wrong length, missing CRLF), so whole events here prove the framing.
    await until(() => text.split("event: sentence").length === 4);
    const texts = [...text.matchAll(/"text":"([^"]*)"/g)].map((m) => m[1]);
    expect(texts).toEqual(lines);
    expect(text.startsWith("retry: 3000\n")).toBe(true);
    res.destroy();
  });

  it("writes unframed events to an HTTP/1.0 client, whose body ends with the connection", async () => {
    const bus = new MemoryBus();
    const browsers = createBrowserFanout(bus);
    const url = new URL(await serve({ browsers, filter: { tickers: "*", calls: [] }, fromCursor: null }));
    const socket = connectSocket(Number(url.port), "127.0.0.1");
    let raw = "";
    socket.setEncoding("utf8");
    socket.on("data", (c: string) => (raw += c));
    socket.write("GET / HTTP/1.0\r\n\r\n");
    await until(() => raw.includes("retry: 3000"));
    bus.publish({
      event: "call.started",
      symbol: "AAA",
      data: { callId: CALL, symbol: "AAA", name: "Ä", startTime: "t" },
    });
    await until(() => raw.includes("event: call.started"));
    const [head, body] = raw.split("\r\n\r\n");
    expect(head).not.toMatch(/transfer-encoding/i);
    expect(body).toMatch(
      /^retry: 3000\nid: \d+-0\n\nid: \d+-1\nevent: call\.started\ndata: \{[^\n]*"name":"Ä"[^\n]*\}\n\n$/,
    );
    socket.destroy();
  });

  it("streams to a response queued behind a pipelined request once that request is answered", async () => {
    const bus = new MemoryBus();
    const browsers = createBrowserFanout(bus);
    server = createServer((req, res) => {
      if (req.url === "/slow") {
        setTimeout(() => res.end("slow done"), 50);
        return;
      }
      serveNodeStream(res, { browsers, filter: { tickers: "*", calls: [] }, fromCursor: null });
    });
    await new Promise<void>((r) => server!.listen(0, "127.0.0.1", () => r()));
    const socket = connectSocket((server.address() as AddressInfo).port, "127.0.0.1");
    let raw = "";
    socket.setEncoding("utf8");
    socket.on("data", (c: string) => (raw += c));
    socket.write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n");
    await until(() => browsers.size() === 1);
    bus.publish({
      event: "call.started",
      symbol: "AAA",
      data: { callId: CALL, symbol: "AAA", name: "Queued", startTime: "t" },
    });
    await until(() => raw.includes('"name":"Queued"'));
    expect(raw.indexOf("slow done")).toBeLessThan(raw.indexOf("retry: 3000"));
    // Framed by Node: the chunk holding the event states its exact byte length.
    const body = raw.slice(raw.lastIndexOf("\r\n\r\n") + 4);
    const chunks = body.split("\r\n").filter(Boolean);
    const event = chunks.find((c) => c.includes("Queued"))!;
    expect(parseInt(chunks[chunks.indexOf(event) - 1]!, 16)).toBe(Buffer.byteLength(event));
    socket.destroy();
  });

  it("cuts off a client that stops reading once its backlog passes the limit", async () => {
    const { bus, browsers, reasons, res } = await serveAll({ maxQueuedBytes: 256 * 1024 });
    res.pause(); // reads nothing more: the kernel buffers fill, then the server's
    bus.publish({
      event: "call.started",
      symbol: "AAA",
      data: { callId: CALL, symbol: "AAA", name: "A", startTime: "t" },
    });
    const text = "x".repeat(16 * 1024);
    for (let sequence = 0; sequence < 4_000 && reasons.length === 0; sequence++) {
      bus.publish({
        event: "sentence",
        symbol: "AAA",
        data: { callId: CALL, sequence, text, speaker: "CEO", startMs: 0, endMs: 1, confidence: 1 },
      });
      if (sequence % 50 === 0) await new Promise((r) => setTimeout(r, 1));
    }
    expect(reasons).toEqual(["slow_consumer"]);
    expect(browsers.size()).toBe(0);
    res.destroy();
  });
});
