// GET /api/feeds/[token].ics – the calendar feed of a user's followed companies (no session: the token is the secret)
import { z } from "zod";
import { notFound } from "@/server/errors";
import { route } from "@/server/runtime/route";
import { feedCalls } from "@/server/workspace/feed-calls";
import { earningsIcs } from "@/server/workspace/feeds";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route(
  { params: z.object({ token: z.string() }) },
  async ({ runtime, request, params }) => {
    const token = params.token.endsWith(".ics") ? params.token.slice(0, -4) : params.token;
    const { workspace } = runtime;
    const { feeds, watchlists } = await workspace.repositories();
    const user = await feeds.userFor(token);
    // An unknown or revoked token, or one of a removed user, looks exactly like a missing page.
    if (!user || !workspace.users.isActive(user)) throw notFound("No such calendar feed.");
    // Merged per user and kept a minute (failures 30 s): a feed polled hard costs the upstream nothing more. Read
    // in the background lane (watchlist-calendars.ts, feed-calls.ts).
    const rows = await workspace.calendars.upcoming(runtime.upstream, {
      user,
      tickers: await watchlists.followed(user),
    });
    const calls = await feedCalls(runtime.upstream, rows);
    const base = workspace.publicBaseUrl ?? new URL(request.url).origin;
    return new Response(earningsIcs(rows, { name: "Callroom: followed companies", baseUrl: base, calls }), {
      headers: {
        "Content-Type": "text/calendar; charset=utf-8",
        "Cache-Control": "private, max-age=900",
        "Referrer-Policy": "no-referrer",
      },
    });
  },
);
