import "server-only";
import type { Redis } from "ioredis";
import { AppError } from "../errors";
import { ApiRateLimiter, ConnectionSlots, LoginLimiter } from "./rate-limit";

/**
 * The process's limits, built once by the composition root: proxy.ts, the Node-level doors and every route handler
 * reach them through the one runtime, so each client has one count per process (and, with REDIS_URL, one count in
 * the deployment).
 */

export interface Limits {
  /** Requests per second per client on `/api`. */
  api: ApiRateLimiter;
  /** Sign-in attempts per user and per address. */
  login: LoginLimiter;
  /**
   * Reserves one of the client's open live streams (`/api/stream`, `/api/alerts/stream`), or throws 429
   * `too_many_streams`. The caller releases it when the stream closes.
   */
  acquireStream(client: string): () => void;
  /** Streams open, over every client. */
  openStreams(): number;
}

export interface LimitSettings {
  rateLimit: number;
  ssePerClient: number;
  /** With REDIS_URL: the connection rate limits are counted on. */
  store: Redis | null;
  /** A request refused by one of our limits, by scope (the rate-limit metric). */
  onRefused: (scope: "api" | "sse" | "login") => void;
}

export function createLimits(settings: LimitSettings): Limits {
  const streams = new ConnectionSlots(settings.ssePerClient);
  return {
    api: new ApiRateLimiter(settings.rateLimit, settings.store),
    login: new LoginLimiter(settings.store),
    acquireStream(client) {
      const release = streams.acquire(client);
      if (release) return release;
      settings.onRefused("sse");
      throw new AppError(
        "too_many_streams",
        `At most ${settings.ssePerClient} live streams per client; close another tab and retry.`,
        { retryAfterSeconds: 5 },
      );
    },
    openStreams: () => streams.total(),
  };
}
