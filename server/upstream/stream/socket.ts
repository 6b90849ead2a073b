import "server-only";
import WebSocket from "ws";
import { Backoff } from "./backoff";
import type { StructuredLog } from "../../log";
import { parseFrame, type UpstreamFrame } from "./frames";

/**
 * The one upstream WebSocket (`{ws}/api/v1/transcripts/stream?token=KEY`, docs/upstream.md §6): connect, subscribe,
 * keep alive, reconnect. It knows nothing of calls; frames go to `onFrame`, already parsed.
 *
 * - Liveness: every `pingIntervalMs` it sends the application ping (`{"action":"ping"}`, answered by the text
 *   `pong`) and a protocol ping; any received frame or server ping counts as life. After `livenessTimeoutMs`
 *   without one, the socket is terminated and reconnected. Protocol pongs alone do not count: `ws` answers them
 *   even when the service's application side has gone silent, which is the failure this check exists for.
 * - Reconnect: full-jitter exponential backoff (`baseMs`..`capMs`), reset once a connection has stayed up for
 *   `stableMs`, so a flapping link backs off while a single drop reconnects at once.
 * - 429 on the handshake means the key's single connection is held by someone else (another instance, or a previous
 *   process not yet gone): logged as such and retried with backoff, honouring `Retry-After`.
 * - The URL carries the key, so it is never logged; only its origin and path are.
 */

export type StreamState = "connecting" | "open" | "reconnecting" | "closed";

export interface UpstreamSocketOptions {
  /** WebSocket base URL (`ws://…` / `wss://…`), without path. */
  wsBaseUrl: string;
  apiKey: string;
  log: StructuredLog;
  onFrame: (frame: UpstreamFrame) => void;
  /** Called on every open; `reconnect` is false only for the first successful connection. */
  onOpen?: (info: { reconnect: boolean }) => void;
  onStateChange?: (state: StreamState) => void;
  tickers?: string[];
  backoff?: { baseMs: number; capMs: number; random?: () => number };
  stableMs?: number;
  pingIntervalMs?: number;
  livenessTimeoutMs?: number;
  handshakeTimeoutMs?: number;
}

export const STREAM_PATH = "/api/v1/transcripts/stream";

export class UpstreamSocket {
  private ws: WebSocket | null = null;
  private currentState: StreamState = "closed";
  private stopped = true;
  private everOpened = false;
  private openedAt = 0;
  private lastSeen = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  private retryAfterMs = 0;
  private readonly backoff: Backoff;
  private readonly safeUrl: string;
  private opens = 0;

  constructor(private readonly options: UpstreamSocketOptions) {
    this.backoff = new Backoff(options.backoff ?? { baseMs: 1_000, capMs: 30_000 });
    const u = new URL(STREAM_PATH, options.wsBaseUrl);
    this.safeUrl = `${u.origin}${u.pathname}`;
  }

  get state(): StreamState {
    return this.currentState;
  }

  /** Successful opens so far (for tests and health). */
  get openCount(): number {
    return this.opens;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.connect();
  }

  /** Closes for good (tests, shutdown). */
  stop(): void {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.stopPing();
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.removeAllListeners();
      ws.on("error", () => {});
      ws.terminate();
    }
    this.setState("closed");
  }

  send(message: object): boolean {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  private setState(state: StreamState): void {
    if (this.currentState === state) return;
    this.currentState = state;
    this.options.onStateChange?.(state);
  }

  private connect(): void {
    if (this.stopped) return;
    this.setState(this.everOpened ? "reconnecting" : "connecting");
    const url = new URL(STREAM_PATH, this.options.wsBaseUrl);
    url.searchParams.set("token", this.options.apiKey);
    const ws = new WebSocket(url, { handshakeTimeout: this.options.handshakeTimeoutMs ?? 10_000 });
    this.ws = ws;
    this.retryAfterMs = 0;

    ws.on("unexpected-response", (_req, res) => {
      const status = res.statusCode ?? 0;
      const retryAfter = Number(res.headers["retry-after"]);
      if (Number.isFinite(retryAfter) && retryAfter > 0) this.retryAfterMs = Math.min(retryAfter, 300) * 1000;
      if (status === 429) {
        this.options.log.warn(
          { url: this.safeUrl, status },
          "live bus: upstream stream refused (429): this API key's single live connection is held elsewhere " +
            "(another instance or a previous process); retrying with backoff",
        );
      } else if (status === 401 || status === 403) {
        this.options.log.error(
          { url: this.safeUrl, status },
          status === 401
            ? "live bus: upstream stream refused the API key (401)"
            : "live bus: upstream stream forbidden (403): the key's plan lacks transcripts",
        );
      } else {
        this.options.log.warn({ url: this.safeUrl, status }, "live bus: upstream stream handshake failed");
      }
      res.resume();
      ws.terminate();
    });

    ws.on("open", () => {
      if (this.ws !== ws) return;
      const reconnect = this.everOpened;
      this.everOpened = true;
      this.opens += 1;
      this.openedAt = Date.now();
      this.lastSeen = Date.now();
      this.setState("open");
      this.options.log.info({ url: this.safeUrl, reconnect }, "live bus: upstream stream open");
      for (const ticker of this.options.tickers ?? ["*"]) this.send({ action: "subscribe", ticker });
      // The list catches calls that started (or are still live) while we were away.
      this.send({ action: "list" });
      this.startPing(ws);
      this.options.onOpen?.({ reconnect });
    });

    ws.on("message", (data, isBinary) => {
      if (this.ws !== ws) return;
      this.lastSeen = Date.now();
      const text = isBinary
        ? ""
        : Array.isArray(data)
          ? Buffer.concat(data).toString("utf8")
          : data.toString();
      const frame = parseFrame(text);
      if (frame.kind === "unknown") {
        this.options.log.warn(
          { reason: frame.reason, sample: frame.sample },
          "live bus: dropped an unknown frame",
        );
        return;
      }
      try {
        this.options.onFrame(frame);
      } catch (error) {
        this.options.log.error(
          { err: error instanceof Error ? error.message : String(error), kind: frame.kind },
          "live bus: frame handler failed",
        );
      }
    });

    ws.on("ping", () => {
      this.lastSeen = Date.now();
    });

    ws.on("error", (error) => {
      // The message may name host and port, never the query string; still, keep it short.
      this.options.log.warn(
        { url: this.safeUrl, err: error.message.slice(0, 200) },
        "live bus: upstream stream error",
      );
    });

    ws.on("close", (code) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.stopPing();
      if (this.stopped) return;
      const wasOpen = this.openedAt > 0;
      const upFor = wasOpen ? Date.now() - this.openedAt : 0;
      this.openedAt = 0;
      if (wasOpen && upFor >= (this.options.stableMs ?? 60_000)) this.backoff.reset();
      const delay = Math.max(this.backoff.next(), this.retryAfterMs);
      if (wasOpen)
        this.options.log.warn({ code, upForMs: upFor, retryInMs: delay }, "live bus: upstream stream closed");
      this.setState("reconnecting");
      this.reconnectTimer = setTimeout(() => {
        this.reconnectTimer = null;
        this.connect();
      }, delay);
      this.reconnectTimer.unref?.();
    });
  }

  private startPing(ws: WebSocket): void {
    this.stopPing();
    const interval = this.options.pingIntervalMs ?? 10_000;
    const timeout = this.options.livenessTimeoutMs ?? 30_000;
    let lastPing = Date.now();
    // Checked more often than pings are sent, so silence is noticed within a few percent of `timeout`.
    this.pingTimer = setInterval(
      () => {
        if (this.ws !== ws) return;
        const now = Date.now();
        if (now - this.lastSeen > timeout) {
          this.options.log.warn(
            { silentForMs: now - this.lastSeen },
            "live bus: upstream stream silent; reconnecting",
          );
          ws.terminate();
          return;
        }
        if (now - lastPing < interval) return;
        lastPing = now;
        this.send({ action: "ping" });
        try {
          ws.ping();
        } catch {
          // A socket closing under us is handled by `close`.
        }
      },
      Math.max(50, Math.min(interval, timeout / 10)),
    );
    this.pingTimer.unref?.();
  }

  private stopPing(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
  }
}
