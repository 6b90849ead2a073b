// PATCH /api/alert-rules/[id] – edit, pause or resume a rule; DELETE – remove it (the alerts it fired stay)
import { z } from "zod";
import { alertRulePatchSchema } from "@/lib/schemas/alerts";
import { patchedRule } from "@/server/alerts/rule-patch";
import { validateWebhookUrl } from "@/server/alerts/webhook-target";
import { noContent, privateJson } from "@/server/http/respond";
import { route } from "@/server/runtime/route";
import { pathId } from "@/server/workspace/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = z.object({ id: z.string() });

export const PATCH = route(
  { user: true, params, body: alertRulePatchSchema },
  async ({ runtime, user, params, body }) => {
    const id = pathId(params.id, "alert rule");
    const { workspace } = runtime;
    const { alerts } = await workspace.repositories();
    const current = await alerts.getRule(user, id);
    const next = patchedRule(current, body);
    // A changed webhook is checked as a new one would be, before anything is saved.
    if (next.webhookUrl !== undefined && next.webhookUrl !== current.webhookUrl)
      await validateWebhookUrl(next.webhookUrl, workspace.allowlist);
    const rule = await alerts.updateRule(user, id, next, body.paused);
    workspace.rulesChanged();
    return privateJson({ data: rule });
  },
);

export const DELETE = route({ user: true, params, mutation: true }, async ({ runtime, user, params }) => {
  const id = pathId(params.id, "alert rule");
  const { workspace } = runtime;
  await (await workspace.repositories()).alerts.deleteRule(user, id);
  workspace.rulesChanged();
  return noContent();
});
