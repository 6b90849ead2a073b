// GET /api/calendar/earnings – one page of the earnings calendar: { data: EarningsRow[], meta: PageMeta }
import { earningsQuerySchema } from "@/lib/schemas/calendar";
import { envelopeResponse } from "@/server/http/respond";
import { route } from "@/server/runtime/route";
import { CACHE_POLICIES } from "@/server/upstream/cache";
import { listEarnings } from "@/server/upstream/calendars";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ query: earningsQuerySchema }, async ({ runtime, query, signal }) => {
  const page = await listEarnings(runtime.upstream, query, { signal });
  return envelopeResponse(page, CACHE_POLICIES.calendar.freshMs, {
    page: page.page,
    pageSize: page.pageSize,
    hasMore: page.hasMore,
  });
});
