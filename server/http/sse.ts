import "server-only";
import type { OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/**
 * The one Server-Sent Events writer, for every stream we serve (the live stream `/api/stream`, the alerts stream
 * `/api/alerts/stream`): the preamble, the replay a subscription hands over synchronously (one write), the messages,
 * one heartbeat timer per interval for all streams, and a cut-off for a client that lets its unsent backlog pass
 * `maxQueuedBytes` (it resumes from its `Last-Event-ID` once it can keep up) rather than holding the server's memory.
 *
 * It writes onto one of two sinks: a Node response (`nodeSink`: the Node-level doors, scripts/serve.mjs; each message
 * goes straight to the socket as one shared buffer, which is what lets one process hold 10,000 streams,
 * docs/performance.md), or a web `ReadableStream` for a Next route handler (`webSink`: messages of one macrotask are
 * one chunk).
 */

/** What the browser's EventSource waits before reconnecting. */
export const SSE_RETRY_MS = 3_000;
export const SSE_HEARTBEAT_MS = 15_000;
export const SSE_MAX_QUEUED_BYTES = 1024 * 1024;

export const SSE_HEADERS: Record<string, string> = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
  Connection: "keep-alive",
};

/** `revoked`: ended by the server because its user was removed (server/security/user-streams.ts). */
export type SseCloseReason = "aborted" | "cancelled" | "slow_consumer" | "revoked";

/** A message: `event` and one-line JSON `data`, sent with `id` (what a client resumes from). */
export interface SseMessage {
  event: string;
  data: unknown;
}

/** One message's bytes, made once however many streams send it. */
export class Encoded {
  private bytesOf: Buffer | null = null;
  private chunkOf: Buffer | null = null;
  constructor(readonly text: string) {}
  get bytes(): Buffer {
    return (this.bytesOf ??= Buffer.from(this.text, "utf8"));
  }
  /** As one HTTP/1.1 chunk (`<hex length>\r\n<bytes>\r\n`), for a chunked response written by us. */
  get chunk(): Buffer {
    return (this.chunkOf ??= frameChunk(this.bytes));
  }
}

let lastEncoded: { message: SseMessage; id: string; encoded: Encoded } | null = null;

/**
 * One SSE message. JSON never contains a raw newline, so `data` is always a single line. The fan-out hands the same
 * message object to every stream in turn, so the last encoding is remembered: a sentence sent to 10,000 streams is
 * serialized once, not 10,000 times. Messages are never mutated after they are sent.
 */
export function encodeMessage(message: SseMessage, id: string): Encoded {
  if (lastEncoded?.message === message && lastEncoded.id === id) return lastEncoded.encoded;
  const encoded = new Encoded(
    `id: ${id}\nevent: ${message.event}\ndata: ${JSON.stringify(message.data)}\n\n`,
  );
  lastEncoded = { message, id, encoded };
  return encoded;
}

/** A comment line: ignored by EventSource, keeps proxies and load balancers from timing the connection out. */
export function encodeComment(text: string): string {
  return `: ${text.replace(/[\r\n]+/g, " ")}\n\n`;
}

/**
 * The stream's first bytes: the reconnect delay and, when given, an id without an event (sets the EventSource's last
 * event id without dispatching anything), so a client that saw no event before a disconnect resumes from where it
 * joined instead of from "now".
 */
export function encodePreamble(id: string | null): string {
  return `retry: ${SSE_RETRY_MS}\n${id ? `id: ${id}\n` : ""}\n`;
}

const CRLF = Buffer.from("\r\n", "latin1");

/** One HTTP/1.1 chunk holding `bytes` (which must not be empty: an empty chunk ends the body). */
export function frameChunk(bytes: Buffer): Buffer {
  if (bytes.length === 0) throw new Error("an empty chunk would end the response");
  return Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`, "latin1"), bytes, CRLF]);
}

const HEARTBEAT = new Encoded(encodeComment("heartbeat"));

/** Where a stream's bytes go. `fail` ends the stream from the sink's side (the client left, or fell behind). */
export interface SseSink {
  /** The preamble and whatever the subscription replayed, as one write. */
  begin(parts: Encoded[], fail: (reason: SseCloseReason) => void): void;
  send(message: Encoded): void;
  /** Releases the sink after the stream closed for `reason`. */
  end(reason: SseCloseReason): void;
}

export interface SseOptions {
  /** An id for the preamble (the stream's position when the client is not resuming); null for none. */
  initialId: string | null;
  /**
   * Starts the stream's subscription: `send` each message with its id. What it sends before returning (a replay)
   * goes out with the preamble in one write. Returns the unsubscribe.
   */
  subscribe(send: (message: SseMessage, id: string) => void): () => void;
  heartbeatMs?: number;
  onClose?: (reason: SseCloseReason) => void;
}

/** Serves one stream onto `sink` until the client leaves or falls behind. */
export function serveSse(sink: SseSink, options: SseOptions): { close(reason: SseCloseReason): void } {
  let closed = false;
  let unsubscribe: (() => void) | null = null;
  let leaveHeartbeat: (() => void) | null = null;
  let gathered: Encoded[] | null = [new Encoded(encodePreamble(options.initialId))];

  const close = (reason: SseCloseReason) => {
    if (closed) return;
    closed = true;
    unsubscribe?.();
    leaveHeartbeat?.();
    sink.end(reason);
    options.onClose?.(reason);
  };
  const send = (encoded: Encoded) => {
    if (!closed) sink.send(encoded);
  };

  unsubscribe = options.subscribe((message, id) => {
    const encoded = encodeMessage(message, id);
    if (gathered) gathered.push(encoded);
    else send(encoded);
  });
  const first = gathered;
  gathered = null;
  sink.begin(first, close);
  if (!closed) leaveHeartbeat = joinHeartbeat(options.heartbeatMs ?? SSE_HEARTBEAT_MS, () => send(HEARTBEAT));
  return { close };
}

/** One timer per interval for all streams, instead of one per stream. */
const heartbeats = new Map<number, { timer: NodeJS.Timeout; beats: Set<() => void> }>();

function joinHeartbeat(intervalMs: number, beat: () => void): () => void {
  let group = heartbeats.get(intervalMs);
  if (!group) {
    const beats = new Set<() => void>();
    const timer = setInterval(() => {
      for (const b of beats) b();
    }, intervalMs);
    timer.unref();
    group = { timer, beats };
    heartbeats.set(intervalMs, group);
  }
  const { beats, timer } = group;
  beats.add(beat);
  return () => {
    beats.delete(beat);
    if (beats.size === 0) {
      clearInterval(timer);
      heartbeats.delete(intervalMs);
    }
  };
}

/**
 * A Node response. The status line, the headers and the first bytes go through Node's response, which frames them
 * and settles the body's framing; from then on each message goes straight to the socket, framed by us when the
 * response is chunked: one shared buffer and one write per client, without the response's per-write chunk
 * assembly, cork and uncork (bench/relay.ts). The response is never ended by us, so Node writes nothing after these
 * bytes but the final chunk, if ever.
 */
export function nodeSink(
  res: ServerResponse,
  headers: OutgoingHttpHeaders,
  maxQueuedBytes = SSE_MAX_QUEUED_BYTES,
): SseSink {
  let socket: Socket | null = null;
  let chunked = false;
  let fail: (reason: SseCloseReason) => void = () => {};
  res.on("close", () => fail("aborted"));
  res.writeHead(200, headers);
  return {
    begin(parts, onFail) {
      fail = onFail;
      res.write(Buffer.concat(parts.map((p) => p.bytes)));
      socket = res.socket;
      chunked = (res as ServerResponse & { chunkedEncoding?: boolean }).chunkedEncoding === true;
    },
    send(message) {
      if (socket?.destroyed) return fail("aborted");
      // A response queued behind a pipelined one has no socket yet: Node holds its writes and frames them itself.
      const ok = socket ? socket.write(chunked ? message.chunk : message.bytes) : res.write(message.bytes);
      // write() turns false once the buffer passes its high-water mark: only then is the backlog measured.
      if (!ok && (socket ?? res).writableLength > maxQueuedBytes) fail("slow_consumer");
    },
    end(reason) {
      if (reason === "slow_consumer") (socket ?? res).destroy();
      // Ends the body properly (its last chunk): the browser sees the stream end, not a network error.
      else if (reason === "revoked") res.end();
    },
  };
}

/**
 * A web stream for a Response body. Messages are gathered per macrotask and enqueued as one chunk (a burst of a
 * thousand sentences after a gap fill is one chunk, not a thousand); the queue is byte-counted.
 */
export function webSink(
  signal: AbortSignal | undefined,
  maxQueuedBytes = SSE_MAX_QUEUED_BYTES,
): { sink: SseSink; body: ReadableStream<Uint8Array> } {
  const highWaterMark = 64 * 1024;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let pending: Buffer[] = [];
  let flushScheduled: NodeJS.Immediate | null = null;
  let fail: (reason: SseCloseReason) => void = () => {};
  let done = false;

  const flush = () => {
    flushScheduled = null;
    if (done || pending.length === 0) return;
    const chunk = Buffer.concat(pending);
    pending = [];
    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if (highWaterMark - (controller.desiredSize ?? 0) > maxQueuedBytes) fail("slow_consumer");
  };
  const push = (bytes: Buffer) => {
    pending.push(bytes);
    flushScheduled ??= setImmediate(flush);
  };
  const onAbort = () => fail("aborted");

  const body = new ReadableStream<Uint8Array>(
    {
      // Called synchronously, while the stream is constructed.
      start(c) {
        controller = c;
      },
      cancel() {
        fail("cancelled");
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark }),
  );

  const sink: SseSink = {
    begin(parts, onFail) {
      fail = onFail;
      if (signal?.aborted) return fail("aborted");
      signal?.addEventListener("abort", onAbort, { once: true });
      push(Buffer.concat(parts.map((p) => p.bytes)));
    },
    send(message) {
      push(message.bytes);
    },
    end(reason) {
      done = true;
      pending = [];
      if (flushScheduled) clearImmediate(flushScheduled);
      signal?.removeEventListener("abort", onAbort);
      try {
        if (reason === "slow_consumer") controller.error(new Error("SSE consumer too slow; disconnected"));
        else if (reason === "aborted" || reason === "revoked") controller.close();
      } catch {
        // Already closed or errored.
      }
    },
  };
  return { sink, body };
}
