// GET /api/watchlists/[id]/calendar?kind=earnings|ma&from&to&importance&sort&updatedSince&page&pageSize – a calendar
// filtered by the watchlist, however many tickers it holds (several upstream requests of at most 50 tickers, merged)
import { z } from "zod";
import { EARNINGS_SORTS, MA_SORTS } from "@/lib/schemas/calendar-sorts";
import { dateParam, enumParam, intParam, unixSecondsParam } from "@/lib/schemas/params";
import type { EarningsRow, MaRow } from "@/lib/schemas/calendar";
import { privateJson } from "@/server/http/respond";
import { route } from "@/server/runtime/route";
import { pathId } from "@/server/workspace/http";
import { pageOfRows } from "@/server/workspace/watchlist-calendar";
import type { WatchlistCalendar } from "@/server/workspace/watchlist-calendars";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const querySchema = z
  .object({
    kind: z.enum(["earnings", "ma"], { message: "kind must be earnings or ma" }).default("earnings"),
    from: dateParam("from").optional(),
    to: dateParam("to").optional(),
    importance: intParam("importance", 0, 5).optional(),
    sort: enumParam("sort", [...EARNINGS_SORTS, ...MA_SORTS]).optional(),
    updatedSince: unixSecondsParam("updatedSince").optional(),
    page: intParam("page", 0, 100_000).optional(),
    pageSize: intParam("pageSize", 1, 1000).optional(),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    message: "from must be on or before to",
    path: ["from"],
  })
  .superRefine((q, ctx) => {
    const sorts: readonly string[] = q.kind === "earnings" ? EARNINGS_SORTS : MA_SORTS;
    if (q.sort !== undefined && !sorts.includes(q.sort))
      ctx.addIssue({
        code: "custom",
        message: `sort must be one of ${sorts.join(", ")} for kind=${q.kind}`,
        path: ["sort"],
      });
  });

export const GET = route(
  { user: true, params: z.object({ id: z.string() }), query: querySchema },
  async ({ runtime, user, params, query }) => {
    const id = pathId(params.id, "watchlist");
    const { kind, sort, page, pageSize, ...range } = query;
    const { workspace, upstream } = runtime;
    const list = await (await workspace.repositories()).watchlists.get(user, id);
    // Tickers checked against the directory and capped, at most 8 upstream requests in flight, the merged result
    // kept per user for a minute (failures 30 s); updatedSince filters the kept result (watchlist-calendars.ts).
    const calendar = { user, tickers: list.tickers };
    // A person's request: the user lane (docs/workspace.md).
    const merged: WatchlistCalendar<EarningsRow | MaRow> =
      kind === "earnings"
        ? await workspace.calendars.earnings(upstream, calendar, {
            ...range,
            sort: sort as "date:asc" | "date:desc" | undefined,
          })
        : await workspace.calendars.ma(upstream, calendar, {
            ...range,
            sort: sort as "announced" | "expected" | "completed" | undefined,
          });
    // Without pageSize every merged row is one page, as the watchlists page has always read it.
    const size = pageSize ?? Math.max(1, merged.rows.length);
    const { rows, hasMore } = pageOfRows(merged.rows, page ?? 0, size);
    return privateJson({
      data: rows,
      meta: {
        tickers: list.tickers,
        tickersLeftOut: merged.tickersLeftOut,
        requests: merged.requests,
        isTruncated: merged.isTruncated,
        // The paged envelope's fields, so the main calendar pages show a watchlist's rows like their own.
        fetchedAt: merged.fetchedAt ?? new Date().toISOString(),
        stale: merged.stale,
        page: page ?? 0,
        pageSize: size,
        hasMore,
      },
    });
  },
);
