// GET /api/calendar/ma – one page of the M&A calendar: { data: MaRow[], meta: PageMeta }
import { maQuerySchema } from "@/lib/schemas/calendar";
import { toErrorResponse } from "@/server/http/errors";
import { parseQuery } from "@/server/http/parse-query";
import { envelopeResponse } from "@/server/http/respond";
import { CACHE_POLICIES } from "@/server/upstream/cache";
import { listMa } from "@/server/upstream/calendars";
import { withRequestContext } from "@/server/http/request-context";
import { getRuntime } from "@/server/runtime";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = withRequestContext(async function GET(request: Request): Promise<Response> {
  try {
    const query = parseQuery(new URL(request.url).searchParams, maQuerySchema);
    const page = await listMa(getRuntime().upstream, query, { signal: request.signal });
    return envelopeResponse(page, CACHE_POLICIES.calendar.freshMs, {
      page: page.page,
      pageSize: page.pageSize,
      hasMore: page.hasMore,
    });
  } catch (error) {
    return toErrorResponse(error);
  }
});
