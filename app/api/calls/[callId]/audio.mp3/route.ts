// GET /api/calls/[callId]/audio.mp3 – the call's MP3 recording (after the call ends), with Range support
import { callIdParamsSchema } from "@/lib/schemas/calls";
import { route } from "@/server/runtime/route";
import { assertNoQuery } from "@/server/upstream/media";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ params: callIdParamsSchema }, ({ runtime, request, params, signal }) => {
  assertNoQuery(request);
  return runtime.media.file(params.callId, "mp3", request.headers.get("range"), signal);
});
