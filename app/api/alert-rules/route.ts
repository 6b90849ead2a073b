// GET /api/alert-rules – the user's alert rules, newest first; POST – a new rule (see lib/schemas/alerts.ts)
import { alertRuleInputSchema } from "@/lib/schemas/alerts";
import { validateWebhookUrl } from "@/server/alerts/webhook-target";
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
    return workspaceJson({ data: await alerts.listRules(user) });
  } catch (error) {
    return toErrorResponse(error);
  }
});

export const POST = withRequestContext(async function POST(request: Request): Promise<Response> {
  try {
    const user = requestUser(request);
    const input = await mutationBody(request, alertRuleInputSchema);
    const workspace = getWorkspace();
    // Every check before the one write: a refused webhook leaves nothing saved.
    if (input.webhookUrl !== undefined) await validateWebhookUrl(input.webhookUrl, workspace.allowlist);
    const { alerts } = await workspace.repositories();
    const rule = await alerts.createRule(user, input);
    workspace.rulesChanged();
    return workspaceJson({ data: rule }, 201);
  } catch (error) {
    return toErrorResponse(error);
  }
});
