// GET /api/calls/[callId]/summary – the call's summary (404 until the call is enriched)
import { callIdParamsSchema } from "@/lib/schemas/calls";
import { jsonResponse } from "@/server/http/respond";
import { route } from "@/server/runtime/route";
import { getCallSummary } from "@/server/upstream/calls";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ params: callIdParamsSchema }, async ({ runtime, params, signal }) => {
  const summary = await getCallSummary(runtime.upstream, params.callId, { signal });
  return jsonResponse(
    { data: summary.value, meta: { fetchedAt: summary.fetchedAt, stale: summary.stale } },
    { freshSeconds: 60, fetchedAt: summary.fetchedAt, stale: summary.stale },
  );
});
