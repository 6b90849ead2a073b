// GET /api/watchlists/[id]/calendar?kind=earnings|ma&from&to&importance – a calendar filtered by the watchlist,
// however many tickers it holds (several upstream requests of at most 50 tickers, merged): { data, meta }
import { z } from "zod";
import { dateParam, intParam } from "@/lib/schemas/params";
import { toErrorResponse } from "@/server/http/errors";
import { parseQuery } from "@/server/http/parse-query";
import { withRequestContext } from "@/server/http/request-context";
import { getRuntime } from "@/server/runtime";
import { getWorkspace } from "@/server/workspace";
import { pathId, workspaceJson } from "@/server/workspace/http";
import { requestUser } from "@/server/workspace/request-user";
import { watchlistEarnings, watchlistMa } from "@/server/workspace/watchlist-calendars";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const querySchema = z
  .object({
    kind: z.enum(["earnings", "ma"], { message: "kind must be earnings or ma" }).default("earnings"),
    from: dateParam("from").optional(),
    to: dateParam("to").optional(),
    importance: intParam("importance", 0, 5).optional(),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    message: "from must be on or before to",
    path: ["from"],
  });

export const GET = withRequestContext(async function GET(
  request: Request,
  context: { params: Promise<{ id: string }> },
): Promise<Response> {
  try {
    const user = requestUser(request);
    const id = pathId((await context.params).id, "watchlist");
    const { kind, ...range } = parseQuery(new URL(request.url).searchParams, querySchema);
    const list = await (await getWorkspace().repositories()).watchlists.get(user, id);
    const upstream = getRuntime().upstream;
    const merged =
      kind === "earnings"
        ? await watchlistEarnings(upstream, list.tickers, range, request.signal)
        : await watchlistMa(upstream, list.tickers, range, request.signal);
    return workspaceJson({
      data: merged.rows,
      meta: { tickers: list.tickers, requests: merged.requests, isTruncated: merged.isTruncated },
    });
  } catch (error) {
    return toErrorResponse(error);
  }
});
