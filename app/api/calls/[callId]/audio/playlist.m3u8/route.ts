// GET /api/calls/[callId]/audio/playlist.m3u8 – the call's HLS playlist, segment URIs rewritten to our own paths
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
    const { text, ended } = await getRuntime().media.playlist(callId, request.signal);
    return new Response(text, {
      headers: {
        "Content-Type": "application/vnd.apple.mpegurl",
        // A live (EVENT) playlist grows every couple of seconds; a sealed one never changes.
        "Cache-Control": ended ? "private, max-age=3600" : "no-cache",
      },
    });
  } catch (error) {
    return toErrorResponse(error);
  }
});
