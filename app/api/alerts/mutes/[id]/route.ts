// DELETE /api/alerts/mutes/[id] – unmute
import { toErrorResponse } from "@/server/http/errors";
import { withRequestContext } from "@/server/http/request-context";
import { getWorkspace } from "@/server/workspace";
import { pathId, workspaceJson } from "@/server/workspace/http";
import { assertSameOrigin, requestUser } from "@/server/workspace/request-user";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const DELETE = withRequestContext(async function DELETE(
  request: Request,
  context: { params: Promise<{ id: string }> },
): Promise<Response> {
  try {
    const user = requestUser(request);
    assertSameOrigin(request);
    const id = pathId((await context.params).id, "mute");
    const workspace = getWorkspace();
    await (await workspace.repositories()).alerts.deleteMute(user, id);
    workspace.rulesChanged();
    return workspaceJson(null, 204);
  } catch (error) {
    return toErrorResponse(error);
  }
});
