// GET /api/summaries – summaries of enriched calls, newest first
import { summariesQuerySchema } from "@/lib/schemas/calls";
import { pagedResponse } from "@/server/http/respond";
import { route } from "@/server/runtime/route";
import { listSummaries } from "@/server/upstream/calls";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ query: summariesQuerySchema }, async ({ runtime, query, signal }) => {
  const page = await listSummaries(runtime.upstream, query, { signal });
  return pagedResponse(page, query, 30);
});
