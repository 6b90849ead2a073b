// GET /api/calls/[callId] – one call with its transcript so far (REST merged with the live bus, or the archive's copy
// of an imported call)
import { callIdParamsSchema } from "@/lib/schemas/calls";
import { privateJson } from "@/server/http/respond";
import { route } from "@/server/runtime/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ params: callIdParamsSchema }, async ({ runtime, params, signal }) => {
  const { call, fetchedAt, stale } = await runtime.call(params.callId, { signal });
  // Never cached: the body carries the stream cursor that follows it.
  return privateJson({ data: call, meta: { fetchedAt, stale } });
});
