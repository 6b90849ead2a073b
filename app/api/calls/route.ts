// GET /api/calls – conference calls, live ones first, then completed (newest first); `source=imported`: the archive's
// imported transcripts
import { callsQuerySchema } from "@/lib/schemas/calls";
import { toErrorResponse } from "@/server/http/errors";
import { parseQuery } from "@/server/http/parse-query";
import { pagedResponse } from "@/server/http/respond";
import { listCalls } from "@/server/upstream/calls";
import { withRequestContext } from "@/server/http/request-context";
import { getRuntime } from "@/server/runtime";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = withRequestContext(async function GET(request: Request): Promise<Response> {
  try {
    const query = parseQuery(new URL(request.url).searchParams, callsQuerySchema);
    if (query.source === "imported") {
      // Imported calls are completed by nature: `status=live` lists none.
      const page =
        query.status === "live" ? { items: [], total: 0 } : await getRuntime().archive.listImported(query);
      return pagedResponse({ ...page, fetchedAt: new Date().toISOString(), stale: false }, query, 5);
    }
    const page = await listCalls(getRuntime().upstream, query, { signal: request.signal });
    return pagedResponse(page, query, 10);
  } catch (error) {
    return toErrorResponse(error);
  }
});
