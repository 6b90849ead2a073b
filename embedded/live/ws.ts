/**
 * The live stream (docs/upstream.md §6) on `/api/v1/transcripts/stream`: `ws` in `noServer` mode, the handshake answered
 * on the raw upgrade socket so that 401/403/429 are real HTTP statuses a client can read.
 *
 * Per client: its subscriptions (tickers or `*`) and the calls it has been told about (`announced`), so that a
 * call's `audio` event is sent exactly once and always before its first sentence, however the subscriptions
 * overlap. While the `wsSilent` fault is on, nothing is sent (not even pings), and liveness is not judged.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { ackFrame, type WireDialect } from "../wire/documented";
import type { CallRuntime, SpokenSentence } from "./call";
import { sentenceFrame } from "./call-object";

export const STREAM_PATH = "/api/v1/transcripts/stream";

export interface StreamHubOptions {
  authorize: (key: string | null) => "ok" | "unauthorized" | "forbidden";
  isSilent: () => boolean;
  /** Calls live right now (announced or not yet). */
  liveCalls: () => CallRuntime[];
  hlsUrl: (runtime: CallRuntime) => string;
  pingIntervalMs: number;
  /** A client that has not answered a ping for this long is dropped. */
  deadAfterMs: number;
  /** `documented`: acknowledgments are JSON strings, as the real service sends them (docs/upstream.md §8). */
  wire?: WireDialect;
}

interface Client {
  ws: WebSocket;
  key: string;
  uid: string;
  tickers: Set<string>;
  announced: Set<string>;
  lastPongAt: number;
}

const ENVELOPES = {
  401: { code: "auth_failed", id: "unauthorized", value: "Invalid or missing authentication token" },
  403: { code: "forbidden", id: "forbidden", value: "Forbidden" },
  404: { code: "no_data_found", id: "not_found", value: "No data found for the specified parameters" },
  429: { code: "rate_limited", id: "too_many_requests", value: "Too many requests" },
} as const;
const REASONS = {
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  429: "Too Many Requests",
} as const;

function refuse(socket: Duplex, status: 401 | 403 | 404 | 429): void {
  const body = JSON.stringify({ ok: false, errors: [ENVELOPES[status]] });
  const headers = [
    `HTTP/1.1 ${status} ${REASONS[status]}`,
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Connection: close",
    ...(status === 429 ? ["Retry-After: 5"] : []),
  ];
  socket.end(`${headers.join("\r\n")}\r\n\r\n${body}`);
}

export class StreamHub {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly clients = new Set<Client>();
  /** One connection per key (docs/upstream.md §6): the key is freed the moment its socket is dropped. */
  private readonly keys = new Map<string, Client>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly options: StreamHubOptions) {
    this.timer = setInterval(() => this.heartbeat(), options.pingIntervalMs);
    this.timer.unref();
  }

  attach(server: Server): void {
    server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) =>
      this.upgrade(req, socket, head),
    );
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on("error", () => socket.destroy());
    const url = new URL(req.url ?? "/", "http://embedded.invalid");
    if (url.pathname !== STREAM_PATH) return refuse(socket, 404);
    const key = url.searchParams.get("token");
    const verdict = this.options.authorize(key);
    if (verdict === "unauthorized" || key === null) return refuse(socket, 401);
    if (verdict === "forbidden") return refuse(socket, 403);
    if (this.keys.has(key)) return refuse(socket, 429);
    // Reserve before the asynchronous upgrade completes, so two racing handshakes cannot both get in.
    const client: Client = {
      ws: undefined as unknown as WebSocket,
      key,
      uid: randomUUID(),
      tickers: new Set(),
      announced: new Set(),
      lastPongAt: Date.now(),
    };
    this.keys.set(key, client);
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      client.ws = ws;
      this.clients.add(client);
      ws.on("pong", () => {
        client.lastPongAt = Date.now();
      });
      ws.on("message", (data, isBinary) => this.onMessage(client, isBinary ? "" : data.toString()));
      ws.on("close", () => this.forget(client));
      ws.on("error", () => this.forget(client));
      this.send(client, JSON.stringify({ message: "Connected to the server", uid: client.uid }));
    });
  }

  private forget(client: Client): void {
    this.clients.delete(client);
    if (this.keys.get(client.key) === client) this.keys.delete(client.key);
  }

  private send(client: Client, text: string): void {
    if (this.options.isSilent()) return;
    if (client.ws.readyState === client.ws.OPEN) client.ws.send(text);
  }

  private sendJson(client: Client, value: unknown): void {
    this.send(client, JSON.stringify(value));
  }

  private matches(client: Client, symbol: string): boolean {
    return client.tickers.has("*") || client.tickers.has(symbol);
  }

  private onMessage(client: Client, raw: string): void {
    let message: unknown;
    try {
      message = JSON.parse(raw);
    } catch {
      return this.sendJson(client, { action: "error", message: "Malformed JSON" });
    }
    if (typeof message !== "object" || message === null || Array.isArray(message)) {
      return this.sendJson(client, { action: "error", message: "Expected a JSON object with an action" });
    }
    const { action, ticker } = message as { action?: unknown; ticker?: unknown };
    switch (action) {
      case "subscribe":
      case "unsubscribe": {
        if (typeof ticker !== "string" || !/^(\*|[A-Za-z][A-Za-z0-9.-]{0,9})$/.test(ticker.trim())) {
          return this.sendJson(client, {
            action: "error",
            message: `${action} needs a ticker symbol or "*"`,
          });
        }
        const symbol = ticker.trim().toUpperCase();
        if (action === "unsubscribe") {
          client.tickers.delete(symbol);
          return this.send(client, ackFrame(this.options.wire, `Unsubscribed from ${symbol}`));
        }
        client.tickers.add(symbol);
        this.send(client, ackFrame(this.options.wire, `Subscribed to ${symbol}`));
        for (const runtime of this.options.liveCalls()) {
          if (runtime.playlistPublished && this.matches(client, runtime.info.company.symbol)) {
            this.announceTo(client, runtime);
          }
        }
        return;
      }
      case "list":
        return this.sendJson(client, {
          action: "list",
          calls: this.options.liveCalls().map((r) => ({
            call_id: r.callId,
            symbol: r.info.company.symbol,
            name: r.info.company.name,
            start_time: r.info.startTime.toISOString(),
          })),
        });
      case "subscribed":
        return this.sendJson(client, { action: "subscribed", tickers: [...client.tickers] });
      case "ping":
        return this.send(client, "pong");
      case "echo": {
        const echoed = (message as { message?: unknown }).message;
        return this.send(client, typeof echoed === "string" ? echoed : JSON.stringify(echoed ?? null));
      }
      default:
        return this.sendJson(client, {
          action: "error",
          message: typeof action === "string" ? `Unknown action: ${action}` : "Missing action",
        });
    }
  }

  private announceTo(client: Client, runtime: CallRuntime): void {
    if (client.announced.has(runtime.callId)) return;
    if (this.options.isSilent()) return;
    client.announced.add(runtime.callId);
    // A call without media (a replay without audio) is announced all the same, with no link to follow.
    this.sendJson(client, {
      action: "audio",
      symbol: runtime.info.company.symbol,
      call_id: runtime.callId,
      ...(runtime.hasAudio ? { hls_url: this.options.hlsUrl(runtime) } : {}),
    });
  }

  /** A call's playlist now holds its first segment. */
  callAudio(runtime: CallRuntime): void {
    for (const client of this.clients) {
      if (this.matches(client, runtime.info.company.symbol)) this.announceTo(client, runtime);
    }
  }

  callSentence(runtime: CallRuntime, sentence: SpokenSentence, isLast: boolean): void {
    if (this.options.isSilent()) return;
    let frame: string | null = null;
    for (const client of this.clients) {
      if (!this.matches(client, runtime.info.company.symbol)) continue;
      // A client that subscribed while silent (or just now) hears the audio event first.
      this.announceTo(client, runtime);
      frame ??= JSON.stringify(sentenceFrame(runtime, sentence, isLast));
      this.send(client, frame);
    }
  }

  private heartbeat(): void {
    if (this.options.isSilent()) {
      // Pings are silenced too; nobody can be blamed for not answering them.
      const now = Date.now();
      for (const client of this.clients) client.lastPongAt = now;
      return;
    }
    const now = Date.now();
    for (const client of this.clients) {
      if (now - client.lastPongAt > this.options.deadAfterMs) {
        client.ws.terminate();
        this.forget(client);
        continue;
      }
      if (client.ws.readyState === client.ws.OPEN) client.ws.ping();
    }
  }

  count(): number {
    return this.clients.size;
  }

  dropAll(): void {
    for (const client of [...this.clients]) {
      this.forget(client);
      client.ws.close(1012, "Service restarting");
      // A peer that never completes the closing handshake must not keep the socket.
      setTimeout(() => client.ws.terminate(), 1000).unref();
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    for (const client of [...this.clients]) {
      this.forget(client);
      client.ws.terminate();
    }
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
