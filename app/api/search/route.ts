// GET /api/search – full-text search over the transcript archive, grouped by call, with facets, and the user's own notes
import { searchQuerySchema, type SearchAnswer } from "@/lib/schemas/search";
import { toErrorResponse } from "@/server/http/errors";
import { parseQuery } from "@/server/http/parse-query";
import { jsonResponse } from "@/server/http/respond";
import { withRequestContext } from "@/server/http/request-context";
import { getRuntime, type Runtime } from "@/server/runtime";
import { SearchGate } from "@/server/archive/search-gate";
import { requestUser } from "@/server/workspace/request-user";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// One per runtime: each user's searches run one at a time (server/archive/search-gate.ts).
const gates = new WeakMap<Runtime, SearchGate>();

export const GET = withRequestContext(async function GET(request: Request): Promise<Response> {
  try {
    const user = requestUser(request);
    const query = parseQuery(new URL(request.url).searchParams, searchQuerySchema);
    const started = performance.now();
    const runtime = getRuntime();
    const { archive, workspace } = runtime;
    let gate = gates.get(runtime);
    if (!gate) gates.set(runtime, (gate = new SearchGate()));
    const [result, notes] = await gate.run(user, request.signal, () =>
      Promise.all([
        archive.search(query),
        workspace.repositories().then(({ notes }) => notes.search(user, query)),
      ]),
    );
    const data: SearchAnswer = { ...result, ...notes };
    const meta = {
      fetchedAt: new Date().toISOString(),
      stale: false,
      tookMs: Math.round(performance.now() - started),
    };
    // Live calls are indexed as they are spoken, so an answer is only good for a moment.
    return jsonResponse({ data, meta }, { freshSeconds: 5 });
  } catch (error) {
    return toErrorResponse(error);
  }
});
