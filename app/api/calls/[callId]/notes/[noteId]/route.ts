// DELETE /api/calls/[callId]/notes/[noteId] – remove one of the user's notes
import { callIdParamsSchema } from "@/lib/schemas/calls";
import { toErrorResponse } from "@/server/http/errors";
import { parseParams } from "@/server/http/parse-query";
import { withRequestContext } from "@/server/http/request-context";
import { getWorkspace } from "@/server/workspace";
import { pathId, workspaceJson } from "@/server/workspace/http";
import { assertSameOrigin, requestUser } from "@/server/workspace/request-user";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const DELETE = withRequestContext(async function DELETE(
  request: Request,
  context: { params: Promise<{ callId: string; noteId: string }> },
): Promise<Response> {
  try {
    const user = requestUser(request);
    assertSameOrigin(request);
    const params = await context.params;
    const { callId } = parseParams({ callId: params.callId }, callIdParamsSchema);
    const id = pathId(params.noteId, "note");
    await (await getWorkspace().repositories()).notes.remove(user, callId, id);
    return workspaceJson(null, 204);
  } catch (error) {
    return toErrorResponse(error);
  }
});
