// GET /api/calls/[callId]/audio.mp3 – the call's MP3 recording (after the call ends), with Range support
import { callIdParamsSchema } from "@/lib/schemas/calls";
import { toErrorResponse } from "@/server/http/errors";
import { parseParams } from "@/server/http/parse-query";
import { assertNoQuery } from "@/server/upstream/media";
import { withRequestContext } from "@/server/http/request-context";
import { getRuntime } from "@/server/runtime";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = withRequestContext(async function GET(
  request: Request,
  context: { params: Promise<{ callId: string }> },
): Promise<Response> {
  try {
    assertNoQuery(request);
    const { callId } = parseParams(await context.params, callIdParamsSchema);
    return await getRuntime().media.file(callId, "mp3", request.headers.get("range"), request.signal);
  } catch (error) {
    return toErrorResponse(error);
  }
});
