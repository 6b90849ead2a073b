import "server-only";
import type { DeliveredEvent, LiveHub, StreamFilter } from "./hub";

/** What the browser's EventSource waits before reconnecting. */
export const SSE_RETRY_MS = 3_000;
export const SSE_HEARTBEAT_MS = 15_000;
/** A client whose unread backlog exceeds this is cut off; it resumes from its `Last-Event-ID` when it can keep up. */
export const SSE_MAX_QUEUED_BYTES = 1024 * 1024;

export const SSE_HEADERS: Record<string, string> = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
  Connection: "keep-alive",
};

let lastEncoded: {
  event: DeliveredEvent;
  text: string;
  bytes: Buffer | null;
  chunk: Buffer | null;
} | null = null;

/**
 * One SSE message. JSON never contains a raw newline, so `data` is always a single line.
 *
 * The hub hands the same event object to every subscriber in turn, so the last encoding is remembered: a sentence
 * fanned out to 10,000 streams is serialized once, not 10,000 times. Events are never mutated after publishing.
 */
export function encodeEvent(event: DeliveredEvent): string {
  if (lastEncoded?.event === event) return lastEncoded.text;
  const text = `id: ${event.cursor}\nevent: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
  lastEncoded = { event, text, bytes: null, chunk: null };
  return text;
}

/** `encodeEvent` as UTF-8 bytes, also made once per event: each socket then gets the same buffer, unconverted. */
export function encodeEventBytes(event: DeliveredEvent): Buffer {
  const text = encodeEvent(event);
  lastEncoded!.bytes ??= Buffer.from(text, "utf8");
  return lastEncoded!.bytes;
}

/**
 * `encodeEventBytes` framed as one HTTP/1.1 chunk (`<hex length>\r\n<bytes>\r\n`), also made once per event: a
 * chunked response then sends each event as one buffer in one write, the same for every socket, instead of Node's
 * four-part chunk (length, CRLF, data, CRLF) assembled per response.
 */
export function encodeEventChunk(event: DeliveredEvent): Buffer {
  const bytes = encodeEventBytes(event);
  lastEncoded!.chunk ??= frameChunk(bytes);
  return lastEncoded!.chunk;
}

const CRLF = Buffer.from("\r\n", "latin1");

/** One HTTP/1.1 chunk holding `bytes` (which must not be empty: an empty chunk ends the body). */
export function frameChunk(bytes: Buffer): Buffer {
  if (bytes.length === 0) throw new Error("an empty chunk would end the response");
  return Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`, "latin1"), bytes, CRLF]);
}

/** A comment line: ignored by EventSource, keeps proxies and load balancers from timing the connection out. */
export function encodeComment(text: string): string {
  return `: ${text.replace(/[\r\n]+/g, " ")}\n\n`;
}

/**
 * The stream's first bytes: the reconnect delay and, when the client is not resuming, the current cursor as a bare
 * `id:` (sets the EventSource's last event id without dispatching anything), so even a client that saw no event
 * before a disconnect resumes from where it joined instead of from "now".
 */
export function encodePreamble(cursor: string | null): string {
  return `retry: ${SSE_RETRY_MS}\n${cursor ? `id: ${cursor}\n` : ""}\n`;
}

export type SseCloseReason = "aborted" | "cancelled" | "slow_consumer";

export interface SseStreamOptions {
  hub: LiveHub;
  filter: StreamFilter;
  /** Resume point (`Last-Event-ID` or `?cursor=`); null = from now. */
  fromCursor: string | null;
  signal?: AbortSignal;
  heartbeatMs?: number;
  maxQueuedBytes?: number;
  onClose?: (reason: SseCloseReason) => void;
}

/**
 * An SSE body bound to the hub. Events are gathered per macrotask and written with one `enqueue` (a burst of a
 * thousand sentences after a gap fill is one chunk, not a thousand); the stream's queue is byte-counted, and a client
 * that lets it grow past `maxQueuedBytes` is disconnected rather than allowed to hold the server's memory.
 */
export function createSseStream(options: SseStreamOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const maxQueuedBytes = options.maxQueuedBytes ?? SSE_MAX_QUEUED_BYTES;
  const highWaterMark = 64 * 1024;
  let pending: string[] = [];
  let flushScheduled: NodeJS.Immediate | null = null;
  let heartbeat: NodeJS.Timeout | null = null;
  let unsubscribe: (() => void) | null = null;
  let closed = false;
  let controllerRef: ReadableStreamDefaultController<Uint8Array> | null = null;

  const cleanup = (reason: SseCloseReason) => {
    if (closed) return;
    closed = true;
    unsubscribe?.();
    unsubscribe = null;
    if (heartbeat) clearInterval(heartbeat);
    if (flushScheduled) clearImmediate(flushScheduled);
    pending = [];
    options.signal?.removeEventListener("abort", onAbort);
    options.onClose?.(reason);
  };

  const onAbort = () => {
    const controller = controllerRef;
    cleanup("aborted");
    try {
      controller?.close();
    } catch {
      // Already closed or errored.
    }
  };

  const flush = () => {
    flushScheduled = null;
    const controller = controllerRef;
    if (closed || !controller || pending.length === 0) return;
    const chunk = pending.join("");
    pending = [];
    controller.enqueue(encoder.encode(chunk));
    const queued = highWaterMark - (controller.desiredSize ?? 0);
    if (queued > maxQueuedBytes) {
      cleanup("slow_consumer");
      controller.error(new Error("SSE consumer too slow; disconnected"));
    }
  };

  const push = (text: string) => {
    if (closed) return;
    pending.push(text);
    flushScheduled ??= setImmediate(flush);
  };

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controllerRef = controller;
        if (options.signal?.aborted) {
          closed = true;
          options.onClose?.("aborted");
          controller.close();
          return;
        }
        options.signal?.addEventListener("abort", onAbort, { once: true });
        push(encodePreamble(options.fromCursor === null ? options.hub.headCursor() : null));
        unsubscribe = options.hub.subscribe(options.filter, options.fromCursor, (event) =>
          push(encodeEvent(event)),
        );
        heartbeat = setInterval(
          () => push(encodeComment("heartbeat")),
          options.heartbeatMs ?? SSE_HEARTBEAT_MS,
        );
        heartbeat.unref?.();
      },
      cancel() {
        cleanup("cancelled");
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark }),
  );
}
