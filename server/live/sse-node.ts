import "server-only";
import type { OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { LiveHub, StreamFilter } from "./hub";
import {
  encodeComment,
  encodeEventBytes,
  encodeEventChunk,
  encodePreamble,
  frameChunk,
  SSE_HEARTBEAT_MS,
  SSE_MAX_QUEUED_BYTES,
  type SseCloseReason,
} from "./sse";

/**
 * The live stream written straight onto a Node response: the hub's callback writes each event's (shared) encoding to
 * the socket, with no web stream, encoder or promise in between. This is what lets one process hold 10,000
 * analysts' streams (bench/relay.ts): per client it keeps the socket, one subscription and two closures.
 *
 * Same wire format and rules as the web-stream version (sse.ts): preamble, replay from the cursor in one write,
 * heartbeats, and a client whose unsent backlog passes `maxQueuedBytes` is cut off (it resumes from its
 * `Last-Event-ID` when it can keep up) rather than allowed to hold the server's memory.
 */

export interface NodeSseOptions {
  hub: LiveHub;
  filter: StreamFilter;
  fromCursor: string | null;
  headers: OutgoingHttpHeaders;
  heartbeatMs?: number;
  maxQueuedBytes?: number;
  onClose?: (reason: SseCloseReason) => void;
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

export function serveNodeSse(res: ServerResponse, options: NodeSseOptions): void {
  const maxQueuedBytes = options.maxQueuedBytes ?? SSE_MAX_QUEUED_BYTES;
  let closed = false;
  let replay: (string | Buffer)[] | null = [
    encodePreamble(options.fromCursor === null ? options.hub.headCursor() : null),
  ];
  let unsubscribe: (() => void) | null = null;
  let leaveHeartbeat: (() => void) | null = null;
  let socket: Socket | null = null;
  let chunked = false;

  const close = (reason: SseCloseReason) => {
    if (closed) return;
    closed = true;
    unsubscribe?.();
    leaveHeartbeat?.();
    options.onClose?.(reason);
  };

  /** `framed`: the bytes as one HTTP chunk, for a chunked response; `bytes`: the same unframed. */
  const send = (framed: Buffer, bytes: Buffer) => {
    if (closed) return;
    if (socket?.destroyed) return close("aborted");
    // A response queued behind a pipelined one has no socket yet: Node holds its writes and frames them itself.
    const ok = socket ? socket.write(chunked ? framed : bytes) : res.write(bytes);
    // write() turns false once the buffer passes its high-water mark: only then is the backlog measured.
    if (!ok && (socket ?? res).writableLength > maxQueuedBytes) {
      close("slow_consumer");
      (socket ?? res).destroy();
    }
  };

  res.on("close", () => close("aborted"));
  res.writeHead(200, options.headers);
  // The hub replays synchronously inside subscribe(); gathered, it goes out as one write after the preamble.
  unsubscribe = options.hub.subscribe(options.filter, options.fromCursor, (event) => {
    if (replay) replay.push(encodeEventBytes(event));
    else send(encodeEventChunk(event), encodeEventBytes(event));
  });
  const first = Buffer.concat(replay.map((part) => (typeof part === "string" ? Buffer.from(part) : part)));
  replay = null;
  if (closed) {
    unsubscribe();
    return;
  }
  // The headers and the first bytes go through Node's response, which frames them and settles the body's framing.
  res.write(first);
  // From here on, events go straight to the socket, framed by us: each event is then one shared buffer and one
  // write per client, without the response's per-write chunk assembly, cork and uncork (bench/relay.ts). The
  // response is never ended by us, so Node writes nothing after these bytes but the final chunk, if ever.
  socket = res.socket;
  chunked = (res as ServerResponse & { chunkedEncoding?: boolean }).chunkedEncoding === true;
  leaveHeartbeat = joinHeartbeat(options.heartbeatMs ?? SSE_HEARTBEAT_MS, () =>
    send(HEARTBEAT_CHUNK, HEARTBEAT_BYTES),
  );
}

const HEARTBEAT_BYTES = Buffer.from(encodeComment("heartbeat"));
const HEARTBEAT_CHUNK = frameChunk(HEARTBEAT_BYTES);
