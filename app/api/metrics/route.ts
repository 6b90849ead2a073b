// GET /api/metrics – Prometheus text format (behind the session like every route, or CALLROOM_METRICS_TOKEN bearer)
import { toErrorResponse } from "@/server/http/errors";
import { renderMetrics } from "@/server/metrics/registry";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  try {
    const { body, contentType } = await renderMetrics();
    return new Response(body, { headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
  } catch (error) {
    return toErrorResponse(error);
  }
}
