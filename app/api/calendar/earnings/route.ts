// GET /api/calendar/earnings – one page of the earnings calendar: { data: EarningsRow[], meta: PageMeta }
import { earningsQuerySchema } from "@/lib/schemas/calendar";
import { toErrorResponse } from "@/server/http/errors";
import { parseQuery } from "@/server/http/parse-query";
import { envelopeResponse } from "@/server/http/respond";
import { CACHE_POLICIES } from "@/server/upstream/cache";
import { listEarnings } from "@/server/upstream/calendars";
import { withRequestContext } from "@/server/http/request-context";
import { getRuntime } from "@/server/runtime";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = withRequestContext(async function GET(request: Request): Promise<Response> {
  try {
    const query = parseQuery(new URL(request.url).searchParams, earningsQuerySchema);
    const page = await listEarnings(getRuntime().upstream, query, { signal: request.signal });
    return envelopeResponse(page, CACHE_POLICIES.calendar.freshMs, {
      page: page.page,
      pageSize: page.pageSize,
      hasMore: page.hasMore,
    });
  } catch (error) {
    return toErrorResponse(error);
  }
});
