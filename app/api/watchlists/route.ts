// GET /api/watchlists – the user's watchlists in order; POST – a new one `{ name, tickers }`
import { watchlistCreateSchema } from "@/lib/schemas/watchlists";
import { toErrorResponse } from "@/server/http/errors";
import { withRequestContext } from "@/server/http/request-context";
import { getWorkspace } from "@/server/workspace";
import { mutationBody, workspaceJson } from "@/server/workspace/http";
import { requestUser } from "@/server/workspace/request-user";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = withRequestContext(async function GET(request: Request): Promise<Response> {
  try {
    const user = requestUser(request);
    const { watchlists } = await getWorkspace().repositories();
    return workspaceJson({ data: await watchlists.list(user) });
  } catch (error) {
    return toErrorResponse(error);
  }
});

export const POST = withRequestContext(async function POST(request: Request): Promise<Response> {
  try {
    const user = requestUser(request);
    const input = await mutationBody(request, watchlistCreateSchema);
    const workspace = getWorkspace();
    const { watchlists } = await workspace.repositories();
    // A new watchlist has no rule scoped to it yet: the alert engine has nothing to reload.
    const created = await watchlists.create(user, input);
    return workspaceJson({ data: created }, 201);
  } catch (error) {
    return toErrorResponse(error);
  }
});
