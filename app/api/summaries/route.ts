// GET /api/summaries – summaries of enriched calls, newest first
import { summariesQuerySchema } from "@/lib/schemas/calls";
import { toErrorResponse } from "@/server/http/errors";
import { parseQuery } from "@/server/http/parse-query";
import { pagedResponse } from "@/server/http/respond";
import { listSummaries } from "@/server/upstream/calls";
import { withRequestContext } from "@/server/http/request-context";
import { getRuntime } from "@/server/runtime";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = withRequestContext(async function GET(request: Request): Promise<Response> {
  try {
    const query = parseQuery(new URL(request.url).searchParams, summariesQuerySchema);
    const page = await listSummaries(getRuntime().upstream, query, { signal: request.signal });
    return pagedResponse(page, query, 30);
  } catch (error) {
    return toErrorResponse(error);
  }
});
