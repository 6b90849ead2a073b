// GET /api/search – full-text search over the transcript archive, grouped by call, with facets, and the user's own notes
import { searchQuerySchema, type SearchAnswer } from "@/lib/schemas/search";
import { jsonResponse } from "@/server/http/respond";
import { route } from "@/server/runtime/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ user: true, query: searchQuerySchema }, async ({ runtime, user, query }) => {
  const started = performance.now();
  const { archive, workspace } = runtime;
  const [result, notes] = await Promise.all([
    archive.search(query),
    workspace.repositories().then(({ notes }) => notes.search(user, query)),
  ]);
  const data: SearchAnswer = { ...result, ...notes };
  const meta = {
    fetchedAt: new Date().toISOString(),
    stale: false,
    tookMs: Math.round(performance.now() - started),
  };
  // Live calls are indexed as they are spoken, so an answer is only good for a moment.
  return jsonResponse({ data, meta }, { freshSeconds: 5 });
});
