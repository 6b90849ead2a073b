// GET /api/calls – conference calls, live ones first, then completed (newest first)
import { callsQuerySchema, type CallListResponse } from "@/lib/schemas/calls";
import { toErrorResponse } from "@/server/http/errors";
import { parseQuery } from "@/server/http/parse-query";
import { jsonResponse } from "@/server/http/respond";
import { listCalls } from "@/server/upstream/calls";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  try {
    const query = parseQuery(new URL(request.url).searchParams, callsQuerySchema);
    const page = await listCalls(query, { signal: request.signal });
    const body: CallListResponse = {
      data: page.items,
      meta: {
        fetchedAt: page.fetchedAt,
        stale: page.stale,
        page: query.page,
        pageSize: query.pageSize,
        hasMore: (query.page + 1) * query.pageSize < page.total,
        total: page.total,
      },
    };
    return jsonResponse(body, { freshSeconds: 10, fetchedAt: page.fetchedAt, stale: page.stale });
  } catch (error) {
    return toErrorResponse(error);
  }
}
