// PATCH /api/watchlists/[id] – rename, reorder, replace or add/remove tickers; DELETE – remove the watchlist
import { watchlistPatchSchema } from "@/lib/schemas/watchlists";
import { toErrorResponse } from "@/server/http/errors";
import { withRequestContext } from "@/server/http/request-context";
import { getWorkspace } from "@/server/workspace";
import { mutationBody, pathId, workspaceJson } from "@/server/workspace/http";
import { assertSameOrigin, requestUser } from "@/server/workspace/request-user";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const PATCH = withRequestContext(async function PATCH(
  request: Request,
  context: Context,
): Promise<Response> {
  try {
    const user = requestUser(request);
    const id = pathId((await context.params).id, "watchlist");
    const patch = await mutationBody(request, watchlistPatchSchema);
    const workspace = getWorkspace();
    const { watchlists } = await workspace.repositories();
    const updated = await watchlists.update(user, id, patch);
    // The engine reloads only when a rule's scope changed: new tickers on a watchlist some rule is scoped to.
    const tickersChanged = patch.tickers !== undefined || !!patch.add?.length || !!patch.remove?.length;
    if (tickersChanged && (await watchlists.scopesRules(id))) workspace.rulesChanged();
    return workspaceJson({ data: updated });
  } catch (error) {
    return toErrorResponse(error);
  }
});

export const DELETE = withRequestContext(async function DELETE(
  request: Request,
  context: Context,
): Promise<Response> {
  try {
    const user = requestUser(request);
    assertSameOrigin(request);
    const id = pathId((await context.params).id, "watchlist");
    const workspace = getWorkspace();
    const { watchlists } = await workspace.repositories();
    // Rules scoped to it go with it (and the engine reloads); otherwise no rule used it.
    const scoped = await watchlists.scopesRules(id);
    await watchlists.remove(user, id);
    if (scoped) workspace.rulesChanged();
    return workspaceJson(null, 204);
  } catch (error) {
    return toErrorResponse(error);
  }
});
