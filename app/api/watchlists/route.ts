// GET /api/watchlists – the user's watchlists in order; POST – a new one `{ name, tickers }` (meta.unknownTickers)
import { watchlistCreateSchema } from "@/lib/schemas/watchlists";
import { privateJson } from "@/server/http/respond";
import { route } from "@/server/runtime/route";
import { unknownTickers } from "@/server/workspace/unknown-tickers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ user: true }, async ({ runtime, user }) => {
  const { watchlists } = await runtime.workspace.repositories();
  return privateJson({ data: await watchlists.list(user) });
});

export const POST = route(
  { user: true, body: watchlistCreateSchema },
  async ({ runtime, user, body, signal }) => {
    const { watchlists } = await runtime.workspace.repositories();
    // A new watchlist has no rule scoped to it yet: the alert engine has nothing to reload.
    const created = await watchlists.create(user, body);
    const unknown = await unknownTickers(runtime.upstream, body.tickers, signal);
    return privateJson({ data: created, meta: { unknownTickers: unknown } }, 201);
  },
);
