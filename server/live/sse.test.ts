import { describe, expect, it } from "vitest";
import { InMemoryHub } from "./hub";
import {
  createSseStream,
  encodeComment,
  encodeEvent,
  encodeEventBytes,
  encodeEventChunk,
  encodePreamble,
  frameChunk,
  type SseCloseReason,
} from "./sse";

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

describe("SSE encoding", () => {
  it("writes id, event and one-line JSON data", () => {
    const text = encodeEvent({
      event: "sentence",
      symbol: "AAA",
      cursor: "1-7",
      data: {
        callId: A,
        sequence: 0,
        text: "Line one\nline two",
        speaker: "OPERATOR",
        startMs: 0,
        endMs: 5,
        confidence: 0.9,
      },
    });
    expect(text).toBe(
      `id: 1-7\nevent: sentence\ndata: {"callId":"${A}","sequence":0,"text":"Line one\\nline two","speaker":"OPERATOR","startMs":0,"endMs":5,"confidence":0.9}\n\n`,
    );
    expect(text.split("\n").filter((l) => l.startsWith("data:"))).toHaveLength(1);
  });

  it("writes comments on one line, and the preamble with retry and the join cursor", () => {
    expect(encodeComment("a\nb")).toBe(": a b\n\n");
    expect(encodePreamble("1-0")).toBe("retry: 3000\nid: 1-0\n\n");
    expect(encodePreamble(null)).toBe("retry: 3000\n\n");
  });
});

describe("HTTP chunk framing", () => {
  it("counts bytes, not characters, in hexadecimal", () => {
    expect(frameChunk(Buffer.from("é")).toString("utf8")).toBe("2\r\né\r\n");
    expect(frameChunk(Buffer.alloc(255, 120)).subarray(0, 4).toString("latin1")).toBe("ff\r\n");
  });

  it("refuses an empty chunk, which would end the body", () => {
    expect(() => frameChunk(Buffer.alloc(0))).toThrow(/end the response/);
  });

  it("frames each event once and hands every subscriber the same buffer", () => {
    const event = {
      event: "sentence" as const,
      symbol: "AAA",
      cursor: "1-8",
      data: {
        callId: A,
        sequence: 1,
        text: "Umsatz über Plan",
        speaker: "CFO",
        startMs: 0,
        endMs: 1,
        confidence: 1,
      },
    };
    const chunk = encodeEventChunk(event);
    const bytes = encodeEventBytes(event);
    expect(encodeEventChunk(event)).toBe(chunk);
    expect(chunk.toString("utf8")).toBe(`${bytes.length.toString(16)}\r\n${encodeEvent(event)}\r\n`);
  });
});

describe("createSseStream", () => {
  it("streams hub events, coalescing one tick's events into one chunk", async () => {
    const hub = new InMemoryHub({ now: () => 9 });
    const stream = createSseStream({ hub, filter: { tickers: "*", calls: [] }, fromCursor: null });
    const reader = stream.getReader();
    const first = await readSome(reader, (t) => t.endsWith("\n\n"));
    expect(first).toBe("retry: 3000\nid: 9-0\n\n");
    hub.publish({
      event: "call.started",
      symbol: "AAA",
      data: { callId: A, symbol: "AAA", name: "A", startTime: "t" },
    });
    hub.publish({ event: "call.status", symbol: "AAA", data: { callId: A, status: "live" } });
    const { value } = await reader.read();
    const chunk = new TextDecoder().decode(value);
    expect(chunk).toContain("id: 9-1\nevent: call.started\n");
    expect(chunk).toContain("id: 9-2\nevent: call.status\n");
    await reader.cancel();
    expect(hub.subscriberCount()).toBe(0);
  });

  it("sends heartbeats as comments", async () => {
    const hub = new InMemoryHub();
    const stream = createSseStream({
      hub,
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
    const hub = new InMemoryHub();
    const ac = new AbortController();
    const reasons: SseCloseReason[] = [];
    const stream = createSseStream({
      hub,
      filter: { tickers: "*", calls: [] },
      fromCursor: null,
      signal: ac.signal,
      onClose: (r) => reasons.push(r),
    });
    const reader = stream.getReader();
    await reader.read();
    expect(hub.subscriberCount()).toBe(1);
    ac.abort();
    expect(hub.subscriberCount()).toBe(0);
    expect(reasons).toEqual(["aborted"]);
    expect((await reader.read()).done).toBe(true);
  });

  it("cleans up on stream cancel", async () => {
    const hub = new InMemoryHub();
    const reasons: SseCloseReason[] = [];
    const stream = createSseStream({
      hub,
      filter: { tickers: "*", calls: [] },
      fromCursor: null,
      onClose: (r) => reasons.push(r),
    });
    await stream.cancel();
    expect(hub.subscriberCount()).toBe(0);
    expect(reasons).toEqual(["cancelled"]);
  });

  it("disconnects a consumer that stops reading once its backlog passes the cap", async () => {
    const hub = new InMemoryHub();
    const reasons: SseCloseReason[] = [];
    const stream = createSseStream({
      hub,
      filter: { tickers: "*", calls: [] },
      fromCursor: null,
      maxQueuedBytes: 100_000,
      onClose: (r) => reasons.push(r),
    });
    const reader = stream.getReader();
    const text = "x".repeat(1_000);
    for (let round = 0; round < 20 && reasons.length === 0; round += 1) {
      for (let i = 0; i < 20; i += 1) {
        hub.publish({
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
    expect(hub.subscriberCount()).toBe(0);
    await expect(reader.read()).rejects.toThrow(/too slow/);
  });

  it("keeps a consumer that reads, however much flows", async () => {
    const hub = new InMemoryHub();
    const reasons: SseCloseReason[] = [];
    const stream = createSseStream({
      hub,
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
        hub.publish({
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
