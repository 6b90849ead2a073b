// GET /api/health – is our server up, and can it reach the market-data service? (shape fixed by design.md §3)
import { toErrorResponse } from "@/server/http/errors";
import { jsonResponse } from "@/server/http/respond";
import { getHealth } from "@/server/upstream/health";
import { withRequestContext } from "@/server/http/request-context";
import { getRuntime } from "@/server/runtime";
import { archiveHealth } from "@/server/archive/observe";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = withRequestContext(async function GET(request: Request): Promise<Response> {
  try {
    const runtime = getRuntime();
    const health = await getHealth(runtime, { signal: request.signal });
    return jsonResponse({ ...health, archive: archiveHealth(runtime.archive) }, "no-store");
  } catch (error) {
    return toErrorResponse(error);
  }
});
