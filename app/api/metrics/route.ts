// GET /api/metrics – Prometheus text format (behind the session like every route, or CALLROOM_METRICS_TOKEN bearer)
import { toErrorResponse } from "@/server/http/errors";
import { renderMetrics } from "@/server/metrics/collectors";
import { getRuntime } from "@/server/runtime";
import { installArchiveCollectors } from "@/server/archive/observe";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  try {
    const { metrics, live, breakers, upstream, archive, answers } = getRuntime();
    installArchiveCollectors(metrics.registry, archive);
    const { body, contentType } = await renderMetrics(metrics, {
      hub: live.hub,
      relay: live.relay,
      streamState: live.streamState,
      breaker: breakers.upstream,
      cache: upstream.cache,
      answers,
    });
    return new Response(body, { headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
  } catch (error) {
    return toErrorResponse(error);
  }
}
