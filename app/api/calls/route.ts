// GET /api/calls – conference calls, live ones first, then completed (newest first); `source=imported`: the archive's
// imported transcripts; `source=imported`: the archive's
// imported transcripts
import { callsQuerySchema } from "@/lib/schemas/calls";
import { pagedResponse } from "@/server/http/respond";
import { route } from "@/server/runtime/route";
import { listCalls } from "@/server/upstream/calls";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ query: callsQuerySchema }, async ({ runtime, query, signal }) => {
  if (query.source === "imported") {
    // Imported calls are completed by nature: `status=live` lists none.
    const imported =
      query.status === "live" ? { items: [], total: 0 } : await runtime.archive.listImported(query);
    return pagedResponse({ ...imported, fetchedAt: new Date().toISOString(), stale: false }, query, 5);
  }
  const page = await listCalls(runtime.upstream, query, { signal });
  return pagedResponse(page, query, 10);
});
