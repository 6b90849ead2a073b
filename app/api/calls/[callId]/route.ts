// GET /api/calls/[callId] – one call with its transcript so far (REST merged with the live relay, or the archive's
// copy of an imported call)
import { callIdParamsSchema } from "@/lib/schemas/calls";
import { getCallOrImported } from "@/server/archive/call-lookup";
import { toErrorResponse } from "@/server/http/errors";
import { parseParams } from "@/server/http/parse-query";
import { jsonResponse } from "@/server/http/respond";
import { liveCallDeps } from "@/server/runtime/live-call-deps";
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
    const { call, fetchedAt, stale } = await getCallOrImported(getRuntime().archive, liveCallDeps(), callId, {
      signal: request.signal,
    });
    // Never cached: the body carries the stream cursor that follows it.
    return jsonResponse({ data: call, meta: { fetchedAt, stale } }, "no-store");
  } catch (error) {
    return toErrorResponse(error);
  }
});
