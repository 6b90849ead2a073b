// GET /api/calls/[callId] – one call with its transcript so far (REST merged with the live relay)
import { callIdParamsSchema } from "@/lib/schemas/calls";
import { toErrorResponse } from "@/server/http/errors";
import { parseParams } from "@/server/http/parse-query";
import { jsonResponse } from "@/server/http/respond";
import { getCallWithLive } from "@/server/live/live-call";
import { liveCallDeps } from "@/server/runtime/live-call-deps";
import { withRequestContext } from "@/server/http/request-context";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = withRequestContext(async function GET(
  request: Request,
  context: { params: Promise<{ callId: string }> },
): Promise<Response> {
  try {
    const { callId } = parseParams(await context.params, callIdParamsSchema);
    const { call, fetchedAt, stale } = await getCallWithLive(liveCallDeps(), callId, {
      signal: request.signal,
    });
    // Never cached: the body carries the stream cursor that follows it.
    return jsonResponse({ data: call, meta: { fetchedAt, stale } }, "no-store");
  } catch (error) {
    return toErrorResponse(error);
  }
});
