import { createServer, get, type IncomingMessage, type Server } from "node:http";
import { connect as connectSocket, type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { InMemoryHub } from "../hub";
import type { SseCloseReason } from "../sse";
import { serveNodeSse, type NodeSseOptions } from "../sse-node";

const CALL = "0123456789abcdef01234567";
let server: Server | null = null;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = null;
});

async function serve(options: Omit<NodeSseOptions, "headers">): Promise<string> {
  server = createServer((_req, res) =>
    serveNodeSse(res, { ...options, headers: { "content-type": "text/event-stream" } }),
  );
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
async function serveAll(options: Partial<Omit<NodeSseOptions, "headers">> = {}) {
  const hub = new InMemoryHub();
  const reasons: SseCloseReason[] = [];
  const url = await serve({
    hub,
    filter: { tickers: "*", calls: [] },
    fromCursor: null,
    onClose: (r) => reasons.push(r),
    ...options,
  });
  return { hub, reasons, res: await connect(url) };
}

describe("serveNodeSse", () => {
  it("sends heartbeats from a shared timer and stops them, unsubscribing, when the client leaves", async () => {
    const { hub, reasons, res } = await serveAll({ heartbeatMs: 20 });
    let text = "";
    res.on("data", (c: Buffer) => (text += c.toString()));
    await until(() => text.split(": heartbeat\n\n").length > 2);
    expect(hub.subscriberCount()).toBe(1);
    res.destroy();
    await until(() => reasons.length === 1);
    expect(reasons).toEqual(["aborted"]);
    expect(hub.subscriberCount()).toBe(0);
  });

  it("delivers every event intact and in order over a chunked response, multi-byte text included", async () => {
    const { hub, res } = await serveAll();
    expect(res.headers["transfer-encoding"]).toBe("chunked");
    let text = "";
    res.setEncoding("utf8");
    res.on("data", (c: string) => (text += c));
    hub.publish({
      event: "call.started",
      symbol: "AAA",
      data: { callId: CALL, symbol: "AAA", name: "A", startTime: "t" },
    });
    const lines = ["Umsatz über Plan — 12 %", "営業利益は増加", "plain ascii"];
    lines.forEach((line, sequence) =>
      hub.publish({
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
    const hub = new InMemoryHub();
    const url = new URL(await serve({ hub, filter: { tickers: "*", calls: [] }, fromCursor: null }));
    const socket = connectSocket(Number(url.port), "127.0.0.1");
    let raw = "";
    socket.setEncoding("utf8");
    socket.on("data", (c: string) => (raw += c));
    socket.write("GET / HTTP/1.0\r\n\r\n");
    await until(() => raw.includes("retry: 3000"));
    hub.publish({
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
    const hub = new InMemoryHub();
    server = createServer((req, res) => {
      if (req.url === "/slow") {
        setTimeout(() => res.end("slow done"), 50);
        return;
      }
      serveNodeSse(res, {
        hub,
        filter: { tickers: "*", calls: [] },
        fromCursor: null,
        headers: { "content-type": "text/event-stream" },
      });
    });
    await new Promise<void>((r) => server!.listen(0, "127.0.0.1", () => r()));
    const socket = connectSocket((server.address() as AddressInfo).port, "127.0.0.1");
    let raw = "";
    socket.setEncoding("utf8");
    socket.on("data", (c: string) => (raw += c));
    socket.write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n");
    await until(() => hub.subscriberCount() === 1);
    hub.publish({
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
    const { hub, reasons, res } = await serveAll({ maxQueuedBytes: 256 * 1024 });
    res.pause(); // reads nothing more: the kernel buffers fill, then the server's
    hub.publish({
      event: "call.started",
      symbol: "AAA",
      data: { callId: CALL, symbol: "AAA", name: "A", startTime: "t" },
    });
    const text = "x".repeat(16 * 1024);
    for (let sequence = 0; sequence < 4_000 && reasons.length === 0; sequence++) {
      hub.publish({
        event: "sentence",
        symbol: "AAA",
        data: { callId: CALL, sequence, text, speaker: "CEO", startMs: 0, endMs: 1, confidence: 1 },
      });
      if (sequence % 50 === 0) await new Promise((r) => setTimeout(r, 1));
    }
    expect(reasons).toEqual(["slow_consumer"]);
    expect(hub.subscriberCount()).toBe(0);
    res.destroy();
  });
});
