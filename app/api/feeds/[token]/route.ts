// GET /api/feeds/[token].ics – the calendar feed of a user's followed companies (no session: the token is the secret)
import { notFound, toErrorResponse } from "@/server/http/errors";
import { withRequestContext } from "@/server/http/request-context";
import { getRuntime } from "@/server/runtime";
import { getWorkspace } from "@/server/workspace";
import { earningsIcs } from "@/server/workspace/feeds";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = withRequestContext(async function GET(
  request: Request,
  context: { params: Promise<{ token: string }> },
): Promise<Response> {
  try {
    const raw = (await context.params).token;
    const token = raw.endsWith(".ics") ? raw.slice(0, -4) : raw;
    const workspace = getWorkspace();
    const { feeds, watchlists } = await workspace.repositories();
    const user = await feeds.userFor(token);
    // An unknown or revoked token, or one of a removed user, looks exactly like a missing page.
    if (!user || !workspace.users.isActive(user)) throw notFound("No such calendar feed.");
    // Merged per user and kept a minute (failures 30 s): a feed polled hard costs the upstream nothing more. Read
    // in the background lane (watchlist-calendars.ts).
    const rows = await workspace.calendars.upcoming(getRuntime().upstream, {
      user,
      tickers: await watchlists.followed(user),
    });
    const base = workspace.publicBaseUrl ?? new URL(request.url).origin;
    return new Response(earningsIcs(rows, { name: "Callroom: followed companies", baseUrl: base }), {
      headers: {
        "Content-Type": "text/calendar; charset=utf-8",
        "Cache-Control": "private, max-age=900",
        "Referrer-Policy": "no-referrer",
      },
    });
  } catch (error) {
    return toErrorResponse(error);
  }
});
