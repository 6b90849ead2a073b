// GET /api/alerts/mutes – the user's mutes in force; POST – mute a call, or a company until its call ends
import { alertMuteInputSchema } from "@/lib/schemas/alerts";
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
    const { alerts } = await getWorkspace().repositories();
    return workspaceJson({ data: await alerts.listMutes(user) });
  } catch (error) {
    return toErrorResponse(error);
  }
});

export const POST = withRequestContext(async function POST(request: Request): Promise<Response> {
  try {
    const user = requestUser(request);
    const input = await mutationBody(request, alertMuteInputSchema);
    const workspace = getWorkspace();
    const { alerts } = await workspace.repositories();
    const { mute, marked } = await alerts.createMute(user, input);
    workspace.rulesChanged();
    return workspaceJson({ data: mute, marked, unread: await alerts.unreadCount(user) }, 201);
  } catch (error) {
    return toErrorResponse(error);
  }
});
