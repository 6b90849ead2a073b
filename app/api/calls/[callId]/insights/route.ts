// GET /api/calls/[callId]/insights – figures against consensus, changes since the previous call, the Q&A at a glance
import { callIdParamsSchema } from "@/lib/schemas/calls";
import { privateJson } from "@/server/http/respond";
import { route } from "@/server/runtime/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ params: callIdParamsSchema }, async ({ runtime, params, signal }) => {
  const { insights, fetchedAt, stale } = await runtime.insights.getInsights(params.callId, { signal });
  // Not cached: a live call's insights grow with every sentence.
  return privateJson({ data: insights, meta: { fetchedAt, stale } });
});
