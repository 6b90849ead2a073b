// GET /api/calls/[callId]/audio/playlist.m3u8 – the call's HLS playlist, segment URIs rewritten to our own paths
import { callIdParamsSchema } from "@/lib/schemas/calls";
import { route } from "@/server/runtime/route";
import { assertNoQuery } from "@/server/upstream/media";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ params: callIdParamsSchema }, async ({ runtime, request, params, signal }) => {
  assertNoQuery(request);
  const { text, ended } = await runtime.media.playlist(params.callId, signal);
  return new Response(text, {
    headers: {
      "Content-Type": "application/vnd.apple.mpegurl",
      // A live (EVENT) playlist grows every couple of seconds; a sealed one never changes.
      "Cache-Control": ended ? "private, max-age=3600" : "no-cache",
    },
  });
});
