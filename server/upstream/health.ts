import "server-only";
import type { Health } from "@/lib/schemas/health";
import { getEnv } from "../env";
import { getLogger } from "../log";
import { getRelay, getScaleNode, getStreamState } from "../relay/relay";
import { CACHE_POLICIES, getResponseCache } from "./cache";
import { fetchEarningsRows } from "./calendars";

/**
 * Health of our link to the market-data service. REST is probed with the cheapest real call (one calendar row),
 * cached 15 s without stale serving, so a burst of health checks costs one upstream request and an outage shows
 * within 15 s. The WebSocket side is the relay's state: "unknown" while no relay runs in this process (tests,
 * build workers, no upstream configured), "connecting" while it (re)connects, "error" once it gave up.
 */

type StreamStatus = Health["upstream"]["stream"];

export function streamStatus(): StreamStatus {
  const scale = getScaleNode();
  if (scale) {
    const role = scale.role();
    if (role === "follower") return { state: scale.hub.isFollowing ? "ok" : "connecting", role };
    return { state: getRelay() ? socketStatus() : "connecting", role };
  }
  if (!getRelay()) return "unknown";
  return socketStatus();
}

function socketStatus(): "ok" | "connecting" | "error" {
  switch (getStreamState()) {
    case "open":
      return "ok";
    case "connecting":
    case "reconnecting":
      return "connecting";
    default:
      return "error";
  }
}

export async function checkUpstreamRest(options: { signal?: AbortSignal } = {}): Promise<"ok" | "error"> {
  try {
    await getResponseCache().get(
      "health:rest",
      CACHE_POLICIES.health,
      () => fetchEarningsRows({ page: 0, pagesize: 1 }),
      options,
    );
    return "ok";
  } catch (error) {
    getLogger().warn({ err: error }, "health probe of the upstream REST API failed");
    return "error";
  }
}

export async function getHealth(options: { signal?: AbortSignal } = {}): Promise<Health> {
  let mode: Health["upstream"]["mode"] = "remote";
  try {
    mode = getEnv().upstreamMode;
  } catch {
    // An invalid environment is reported through `rest: "error"` below.
  }
  const rest = await checkUpstreamRest(options);
  const stream = streamStatus();
  const streamState = typeof stream === "string" ? stream : stream.state;
  const status = rest === "ok" && streamState !== "error" ? "ok" : "degraded";
  return { status, upstream: { mode, rest, stream } };
}
