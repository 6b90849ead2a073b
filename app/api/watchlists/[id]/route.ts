// PATCH /api/watchlists/[id] – rename, reorder, replace or add/remove tickers; DELETE – remove the watchlist
import { z } from "zod";
import { watchlistPatchSchema } from "@/lib/schemas/watchlists";
import { noContent, privateJson } from "@/server/http/respond";
import { route } from "@/server/runtime/route";
import { pathId } from "@/server/workspace/http";
import { unknownTickers } from "@/server/workspace/unknown-tickers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = z.object({ id: z.string() });

export const PATCH = route(
  { user: true, params, body: watchlistPatchSchema },
  async ({ runtime, user, params, body, signal }) => {
    const id = pathId(params.id, "watchlist");
    const { workspace } = runtime;
    const { watchlists } = await workspace.repositories();
    const updated = await watchlists.update(user, id, body);
    // The engine reloads only when a rule's scope changed: new tickers on a watchlist some rule is scoped to.
    const tickersChanged = body.tickers !== undefined || !!body.add?.length || !!body.remove?.length;
    if (tickersChanged && (await watchlists.scopesRules(id))) workspace.rulesChanged();
    const added = [...(body.add ?? []), ...(body.tickers ?? [])];
    const unknown = await unknownTickers(runtime.upstream, added, signal);
    return privateJson({ data: updated, meta: { unknownTickers: unknown } });
  },
);

export const DELETE = route({ user: true, params, mutation: true }, async ({ runtime, user, params }) => {
  const id = pathId(params.id, "watchlist");
  const { workspace } = runtime;
  const { watchlists } = await workspace.repositories();
  // Rules scoped to it go with it (and the engine reloads); otherwise no rule used it.
  const scoped = await watchlists.scopesRules(id);
  await watchlists.remove(user, id);
  if (scoped) workspace.rulesChanged();
  return noContent();
});
