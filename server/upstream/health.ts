import "server-only";
import type { Health } from "@/lib/schemas/health";
import { getEnv } from "../env";
import { getLogger } from "../log";
import { CACHE_POLICIES, getResponseCache } from "./cache";
import { fetchEarningsRows } from "./calendars";

/**
 * Health of our link to the market-data service. REST is probed with the cheapest real call (one calendar row),
 * cached 15 s without stale serving, so a burst of health checks costs one upstream request and an outage shows
 * within 15 s. The relay reports the WebSocket side through `setStreamStatusProvider`.
 */

type StreamStatus = Health["upstream"]["stream"];

const PROVIDER = Symbol.for("callroom.health.stream");
type Holder = { [PROVIDER]?: () => StreamStatus };

export function setStreamStatusProvider(provider: (() => StreamStatus) | undefined): void {
  (globalThis as Holder)[PROVIDER] = provider;
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
  let stream: StreamStatus = "unknown";
  try {
    stream = (globalThis as Holder)[PROVIDER]?.() ?? "unknown";
  } catch {
    stream = "error";
  }
  const status = rest === "ok" && stream !== "error" ? "ok" : "degraded";
  return { status, upstream: { mode, rest, stream } };
}
