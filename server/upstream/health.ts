import "server-only";
import type { Health } from "@/lib/schemas/health";
import { CACHE_POLICIES } from "./cache";
import { fetchEarningsRows } from "./calendars";
import type { Upstream } from "./client";

/**
 * Health of our link to the market-data service. REST is probed with the cheapest real call (one calendar row),
 * cached 15 s without stale serving, so a burst of health checks costs one upstream request and an outage shows
 * within 15 s. The WebSocket side is the live bus's view of the upstream socket (server/live/create-live.ts):
 * "unknown" while no consumer runs in this process (tests, no upstream configured), "connecting" while it
 * (re)connects, "error" once it gave up.
 */

export async function checkUpstreamRest(
  upstream: Upstream,
  options: { signal?: AbortSignal } = {},
): Promise<"ok" | "error"> {
  try {
    await upstream.cache.get(
      "health:rest",
      CACHE_POLICIES.health,
      () => fetchEarningsRows(upstream, { page: 0, pagesize: 1 }),
      options,
    );
    return "ok";
  } catch (error) {
    upstream.log.warn({ err: error }, "health probe of the upstream REST API failed");
    return "error";
  }
}

export interface HealthParts {
  mode: Health["upstream"]["mode"];
  upstream: Upstream;
  streamStatus(): Health["upstream"]["stream"];
}

export async function getHealth(parts: HealthParts, options: { signal?: AbortSignal } = {}): Promise<Health> {
  const { mode } = parts;
  const rest = await checkUpstreamRest(parts.upstream, options);
  const stream = parts.streamStatus();
  const streamState = typeof stream === "string" ? stream : stream.state;
  const status = rest === "ok" && streamState !== "error" ? "ok" : "degraded";
  return { status, upstream: { mode, rest, stream } };
}
