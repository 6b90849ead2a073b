// PATCH /api/alert-rules/[id] – edit, pause or resume a rule; DELETE – remove it (the alerts it fired stay)
import { alertRulePatchSchema } from "@/lib/schemas/alerts";
import { validateWebhookUrl } from "@/server/alerts/webhook-target";
import { patchedRule } from "@/server/alerts/store";
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
    const patch = await mutationBody(request, alertRulePatchSchema);
    const id = pathId((await context.params).id, "alert rule");
    const workspace = getWorkspace();
    const { alerts } = await workspace.repositories();
    const current = await alerts.getRule(user, id);
    const next = patchedRule(current, patch);
    // A changed webhook is checked as a new one would be, before anything is saved.
    if (next.webhookUrl !== undefined && next.webhookUrl !== current.webhookUrl)
      await validateWebhookUrl(next.webhookUrl, workspace.allowlist);
    const rule = await alerts.updateRule(user, id, next, patch.paused);
    workspace.rulesChanged();
    return workspaceJson({ data: rule });
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
    const id = pathId((await context.params).id, "alert rule");
    const workspace = getWorkspace();
    await (await workspace.repositories()).alerts.deleteRule(user, id);
    workspace.rulesChanged();
    return workspaceJson(null, 204);
  } catch (error) {
    return toErrorResponse(error);
  }
});
