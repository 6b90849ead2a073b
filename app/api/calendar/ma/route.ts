// GET /api/calendar/ma – one page of the M&A calendar: { data: MaRow[], meta: PageMeta }
import { maQuerySchema } from "@/lib/schemas/calendar";
import { envelopeResponse } from "@/server/http/respond";
import { route } from "@/server/runtime/route";
import { CACHE_POLICIES } from "@/server/upstream/cache";
import { listMa } from "@/server/upstream/calendars";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ query: maQuerySchema }, async ({ runtime, query, signal }) => {
  const page = await listMa(runtime.upstream, query, { signal });
  return envelopeResponse(page, CACHE_POLICIES.calendar.freshMs, {
    page: page.page,
    pageSize: page.pageSize,
    hasMore: page.hasMore,
  });
});
