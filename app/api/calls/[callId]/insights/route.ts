// GET /api/calls/[callId]/insights – figures against consensus, changes since the previous call, the Q&A at a glance
import { callIdParamsSchema } from "@/lib/schemas/calls";
import { toErrorResponse } from "@/server/http/errors";
import { parseParams } from "@/server/http/parse-query";
import { jsonResponse } from "@/server/http/respond";
import { withRequestContext } from "@/server/http/request-context";
import { createInsightsService, type InsightsService } from "@/server/insights/service";
import { createUpstreamInsightsSources } from "@/server/insights/upstream-sources";
import { getCallOrImported } from "@/server/archive/call-lookup";
import { isImportedCallId } from "@/server/archive/read-calls";
import { createUpstreamPreviousCallSource } from "@/server/insights/sources";
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
    const upstream = createUpstreamInsightsSources(rt.upstream);
    // An imported call's previous call is the company's previous imported one; its consensus is unknown (the
    // calendar does not cover it), so no figure is compared with one (docs/storage.md, "Imported calls").
    const imported = createUpstreamPreviousCallSource({
      async listCompletedCalls(symbol, to) {
        const page = await rt.archive.listImported({ tickers: [symbol], to, page: 0, pageSize: 8 });
        return page.items;
      },
      getCall: (callId) => rt.archive.importedCall(callId),
    });
    service = createInsightsService({
      getCall: (callId, options) => getCallOrImported(rt.archive, liveCallDeps(), callId, options),
      previousCalls: {
        findPrevious: (call, options) =>
          (isImportedCallId(call.callId) ? imported : upstream.previousCalls).findPrevious(call, options),
      },
      consensus: {
        forCall: (call, options) =>
          isImportedCallId(call.callId)
            ? Promise.resolve({ current: null, next: null })
            : upstream.consensus.forCall(call, options),
      },
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
