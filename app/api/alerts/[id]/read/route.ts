// POST /api/alerts/[id]/read – mark one alert read
import { toErrorResponse } from "@/server/http/errors";
import { withRequestContext } from "@/server/http/request-context";
import { getWorkspace } from "@/server/workspace";
import { pathId, workspaceJson } from "@/server/workspace/http";
import { assertSameOrigin, requestUser } from "@/server/workspace/request-user";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = withRequestContext(async function POST(
  request: Request,
  context: { params: Promise<{ id: string }> },
): Promise<Response> {
  try {
    const user = requestUser(request);
    assertSameOrigin(request);
    const id = pathId((await context.params).id, "alert");
    const { alerts } = await getWorkspace().repositories();
    return workspaceJson({ data: await alerts.markRead(user, id) });
  } catch (error) {
    return toErrorResponse(error);
  }
});
