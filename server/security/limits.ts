import "server-only";
import { AppError } from "../http/errors";
import { processRecord } from "../process-slot";
import type { Metrics } from "../metrics/registry";
import { clientAddress } from "./client-address";
import { getSecurityConfig } from "./config";
import { ApiRateLimiter, ConnectionSlots, LoginLimiter } from "./rate-limit";

/** The process's limiters, in the process slot (proxy.ts and each route bundle must share one count per client). */

interface LimitsStore {
  api: ApiRateLimiter;
  login: LoginLimiter;
  sse: ConnectionSlots;
  sseMax: number;
}

export function getLimits(): LimitsStore {
  const config = getSecurityConfig();
  const record = processRecord();
  const current = record.limits as LimitsStore | undefined;
  if (current && current.api.rate === config.rateLimit && current.sseMax === config.ssePerClient)
    return current;
  const next: LimitsStore = {
    api: new ApiRateLimiter(config.rateLimit),
    login: current?.login ?? new LoginLimiter(),
    sse: new ConnectionSlots(config.ssePerClient),
    sseMax: config.ssePerClient,
  };
  record.limits = next;
  return next;
}

export function resetLimits(): void {
  processRecord().limits = undefined;
}

/** Header proxy.ts sets to the address it resolved (after dropping any client-sent value). */
export const CLIENT_HEADER = "x-callroom-client";

export function requestClient(request: Request): string {
  return (
    request.headers.get(CLIENT_HEADER) ?? clientAddress(request.headers, getSecurityConfig().trustProxyHops)
  );
}

/**
 * Reserves one of the client's SSE connections (the live stream), or throws 429. The caller releases it when the
 * stream closes.
 */
export function acquireSseSlot(request: Request, metrics: Pick<Metrics, "countRateLimited">): () => void {
  return acquireSseSlotFor(requestClient(request), metrics);
}

/** As `acquireSseSlot`, for a client address the caller resolved itself (the stream's Node-level door). */
export function acquireSseSlotFor(client: string, metrics: Pick<Metrics, "countRateLimited">): () => void {
  const release = getLimits().sse.acquire(client);
  if (release) return release;
  metrics.countRateLimited("sse");
  throw new AppError(
    429,
    "too_many_streams",
    `At most ${getSecurityConfig().ssePerClient} live streams per client; close another tab and retry.`,
    { retryAfterSeconds: 5 },
  );
}
