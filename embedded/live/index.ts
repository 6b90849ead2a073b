/**
 * The embedded service's live calls (docs/upstream.md §5–7): transcripts REST, signed media, the WebSocket stream, the
 * control routes and the scheduler that keeps calls live on wall-clock time.
 */
import type { Server } from "node:http";
import type { RouteDef } from "../core/types";
import type { Universe } from "../universe/types";
import type { SpeechEngine } from "./audio/types";
import { loadLiveConfig } from "./config";
import { createEnricher } from "./enrichment/index";
import { LiveCalls } from "./live-calls";
import { liveRoutes } from "./rest";

export interface LiveServiceOptions {
  universe: Universe;
  /** Base URL of this service, used to build signed media links. */
  baseUrl: () => string;
  /** The live module's variables (embedded/config.ts passes them on). */
  env: Readonly<Record<string, string | undefined>>;
  /** True while the `wsSilent` fault is active: the WebSocket sends nothing (no sentences, no pings). */
  isWsSilent: () => boolean;
  /** Key → plan lookup shared with REST auth, so the WebSocket handshake answers 401/403 alike. */
  authorize: (key: string | null) => "ok" | "unauthorized" | "forbidden";
  /** Optional: a speech engine to use instead of eSpeak (tests, or a replacement engine). */
  speech?: SpeechEngine;
  /** Optional: the wall clock in ms (tests shift it to make a release happen); default `Date.now`. */
  now?: () => number;
  /** Compute every historical call's summary in the background after start-up. */
  warmSummaries?: boolean;
  /** `EMBEDDED_TRANSCRIPTS_DIR` (validated by the core config): transcript files to replay. */
  transcriptsDir?: string;
}

export interface LiveService {
  routes: RouteDef[];
  /** Attach the WebSocket endpoint `/api/v1/transcripts/stream` to the HTTP server. */
  attach(server: Server): void;
  /** Number of open WebSocket connections (for `GET /__embedded/stats`). */
  wsConnections(): number;
  /** Close every WebSocket (control `POST /__embedded/ws/drop`). */
  dropWebSockets(): void;
  close(): Promise<void>;
}

/**
 * Extra variables read here besides the contract's: `EMBEDDED_HISTORY_CALL_MINUTES` (length of historical calls,
 * default 10: their audio is synthesized on demand), `EMBEDDED_AUDIO_CACHE` (completed calls keeping audio in memory,
 * default 6), `EMBEDDED_WS_PING_SECONDS` (default 10; a client is dropped after three silent intervals) and
 * `EMBEDDED_SPEECH_WORKER` (`0` synthesizes on the main thread instead of a worker thread: for comparison only).
 */
export function createLiveService(options: LiveServiceOptions): LiveService {
  const config = loadLiveConfig(options.env);
  const num = (name: string, fallback: number) => {
    const value = Number(options.env[name]);
    return options.env[name] && Number.isFinite(value) && value > 0 ? value : fallback;
  };
  const live = new LiveCalls({
    universe: options.universe,
    config,
    baseUrl: options.baseUrl,
    enricher: createEnricher(),
    speech: options.speech,
    speechInThread: options.env.EMBEDDED_SPEECH_WORKER === "0",
    isWsSilent: options.isWsSilent,
    authorize: options.authorize,
    wsPingIntervalMs: num("EMBEDDED_WS_PING_SECONDS", 10) * 1000,
    wire: options.env.EMBEDDED_WIRE === "documented" ? "documented" : "contract",
    historyCallSeconds: num("EMBEDDED_HISTORY_CALL_MINUTES", 10) * 60,
    now: options.now,
    warmSummaries: options.warmSummaries ?? false,
    transcriptsDir: options.transcriptsDir,
  });
  return {
    routes: liveRoutes(live),
    attach: (server) => live.hub.attach(server),
    wsConnections: () => live.hub.count(),
    dropWebSockets: () => live.hub.dropAll(),
    close: () => live.close(),
  };
}
