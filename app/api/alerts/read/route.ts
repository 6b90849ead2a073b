// POST /api/alerts/read – mark the inbox read: { upTo?: alert id, callId? } → { data: { marked }, unread }
import { markAlertsReadSchema } from "@/lib/schemas/alerts";
import { toErrorResponse } from "@/server/http/errors";
import { withRequestContext } from "@/server/http/request-context";
import { getWorkspace } from "@/server/workspace";
import { mutationBody, workspaceJson } from "@/server/workspace/http";
import { requestUser } from "@/server/workspace/request-user";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = withRequestContext(async function POST(request: Request): Promise<Response> {
  try {
    const user = requestUser(request);
    const { upTo, callId } = await mutationBody(request, markAlertsReadSchema);
    const { alerts } = await getWorkspace().repositories();
    const marked = await alerts.markAllRead(user, upTo, callId);
    return workspaceJson({ data: { marked }, unread: await alerts.unreadCount(user) });
  } catch (error) {
    return toErrorResponse(error);
  }
});
