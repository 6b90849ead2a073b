// GET /api/calls/[callId]/summary – the call's summary (404 until the call is enriched)
import { callIdParamsSchema } from "@/lib/schemas/calls";
import { toErrorResponse } from "@/server/http/errors";
import { parseParams } from "@/server/http/parse-query";
import { jsonResponse } from "@/server/http/respond";
import { getCallSummary } from "@/server/upstream/calls";
import { withRequestContext } from "@/server/http/request-context";
import { getRuntime } from "@/server/runtime";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = withRequestContext(async function GET(
  request: Request,
  context: { params: Promise<{ callId: string }> },
): Promise<Response> {
  try {
    const { callId } = parseParams(await context.params, callIdParamsSchema);
    const summary = await getCallSummary(getRuntime().upstream, callId, { signal: request.signal });
    return jsonResponse(
      { data: summary.value, meta: { fetchedAt: summary.fetchedAt, stale: summary.stale } },
      { freshSeconds: 60, fetchedAt: summary.fetchedAt, stale: summary.stale },
    );
  } catch (error) {
    return toErrorResponse(error);
  }
});
