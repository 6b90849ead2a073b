// Placeholder until the live-calls work lands: transcripts REST, WebSocket stream and media (contract §5–7).
import type { Server } from "node:http";
import type { RouteDef } from "../core/types";
import type { Universe } from "../universe/types";

export interface LiveServiceOptions {
  universe: Universe;
  /** Base URL of this service, used to build signed media links. */
  baseUrl: () => string;
  env: NodeJS.ProcessEnv;
  /** True while the `wsSilent` fault is active: the WebSocket sends nothing (no sentences, no pings). */
  isWsSilent: () => boolean;
  /** Key → plan lookup shared with REST auth, so the WebSocket handshake answers 401/403 alike. */
  authorize: (key: string | null) => "ok" | "unauthorized" | "forbidden";
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

export function createLiveService(_options: LiveServiceOptions): LiveService {
  return {
    routes: [],
    attach: () => {},
    wsConnections: () => 0,
    dropWebSockets: () => {},
    close: async () => {},
  };
}
