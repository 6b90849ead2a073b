import "server-only";
import type { Health } from "@/lib/schemas/health";
import type { ServerEnv } from "../env";
import type { Live } from "../live/relay";
import { CACHE_POLICIES } from "./cache";
import { fetchEarningsRows } from "./calendars";
import type { Upstream } from "./client";

/**
 * Health of our link to the market-data service. REST is probed with the cheapest real call (one calendar row),
 * cached 15 s without stale serving, so a burst of health checks costs one upstream request and an outage shows
 * within 15 s. The WebSocket side is the relay's state: "unknown" while no relay runs in this process (tests,
 * build workers, no upstream configured), "connecting" while it (re)connects, "error" once it gave up.
 */

type StreamStatus = Health["upstream"]["stream"];

export function streamStatus(live: Live): StreamStatus {
  const scale = live.scale;
  if (scale) {
    const role = scale.role();
    if (role === "follower") return { state: scale.hub.isFollowing ? "ok" : "connecting", role };
    return { state: live.relay() ? socketStatus(live) : "connecting", role };
  }
  if (!live.relay()) return "unknown";
  return socketStatus(live);
}

function socketStatus(live: Live): "ok" | "connecting" | "error" {
  switch (live.streamState()) {
    case "open":
      return "ok";
    case "connecting":
    case "reconnecting":
      return "connecting";
    default:
      return "error";
  }
}

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
  env: ServerEnv;
  upstream: Upstream;
  live: Live;
}

export async function getHealth(parts: HealthParts, options: { signal?: AbortSignal } = {}): Promise<Health> {
  const mode = parts.env.upstreamMode;
  const rest = await checkUpstreamRest(parts.upstream, options);
  const stream = streamStatus(parts.live);
  const streamState = typeof stream === "string" ? stream : stream.state;
  const status = rest === "ok" && streamState !== "error" ? "ok" : "degraded";
  return { status, upstream: { mode, rest, stream } };
}
