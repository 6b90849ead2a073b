// GET /api/calls/[callId]/transcript.pdf – the enriched call's PDF transcript, with Range support
import { callIdParamsSchema } from "@/lib/schemas/calls";
import { route } from "@/server/runtime/route";
import { assertNoQuery } from "@/server/upstream/media";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ params: callIdParamsSchema }, ({ runtime, request, params, signal }) => {
  assertNoQuery(request);
  return runtime.media.file(params.callId, "pdf", request.headers.get("range"), signal);
});
