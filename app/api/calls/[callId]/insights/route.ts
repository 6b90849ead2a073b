// GET /api/calls/[callId]/insights – figures against consensus, changes since the previous call, the Q&A at a glance
import { callIdParamsSchema } from "@/lib/schemas/calls";
import { toErrorResponse } from "@/server/http/errors";
import { parseParams } from "@/server/http/parse-query";
import { jsonResponse } from "@/server/http/respond";
import { withRequestContext } from "@/server/http/request-context";
import { createInsightsService, type InsightsService } from "@/server/insights/service";
import { createUpstreamInsightsSources } from "@/server/insights/upstream-sources";
import { getCallWithLive } from "@/server/live/live-call";
import { getRuntime, type Runtime } from "@/server/runtime";
import { liveCallDeps } from "@/server/runtime/live-call-deps";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// One service per runtime: its previous-call and consensus memos must outlive a request.
const services = new WeakMap<Runtime, InsightsService>();

function insightsService(): InsightsService {
  const rt = getRuntime();
  let service = services.get(rt);
  if (!service) {
    service = createInsightsService({
      getCall: (callId, options) => getCallWithLive(liveCallDeps(), callId, options),
      ...createUpstreamInsightsSources(rt.upstream),
      log: rt.log,
    });
    services.set(rt, service);
  }
  return service;
}

export const GET = withRequestContext(async function GET(
  request: Request,
  context: { params: Promise<{ callId: string }> },
): Promise<Response> {
  try {
    const { callId } = parseParams(await context.params, callIdParamsSchema);
    const { insights, fetchedAt, stale } = await insightsService().getInsights(callId, {
      signal: request.signal,
    });
    // Not cached: a live call's insights grow with every sentence.
    return jsonResponse({ data: insights, meta: { fetchedAt, stale } }, "no-store");
  } catch (error) {
    return toErrorResponse(error);
  }
});
