// GET /api/metrics – Prometheus text format (behind the session like every route, or CALLROOM_METRICS_TOKEN bearer)
import { renderMetrics } from "@/server/metrics/collectors";
import { route } from "@/server/runtime/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({}, async ({ runtime }) => {
  const { body, contentType } = await renderMetrics(runtime.metrics);
  return new Response(body, { headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
});
