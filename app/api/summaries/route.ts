// GET /api/summaries – summaries of enriched calls, newest first
import { summariesQuerySchema, type SummaryListResponse } from "@/lib/schemas/calls";
import { toErrorResponse } from "@/server/http/errors";
import { parseQuery } from "@/server/http/parse-query";
import { jsonResponse } from "@/server/http/respond";
import { listSummaries } from "@/server/upstream/calls";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  try {
    const query = parseQuery(new URL(request.url).searchParams, summariesQuerySchema);
    const page = await listSummaries(query, { signal: request.signal });
    const body: SummaryListResponse = {
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
    return jsonResponse(body, { freshSeconds: 30, fetchedAt: page.fetchedAt, stale: page.stale });
  } catch (error) {
    return toErrorResponse(error);
  }
}
