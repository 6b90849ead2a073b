// GET /api/alert-rules – the user's alert rules, newest first; POST – a new rule (see lib/schemas/alerts.ts)
import { alertRuleInputSchema } from "@/lib/schemas/alerts";
import { validateWebhookUrl } from "@/server/alerts/webhook-target";
import { privateJson } from "@/server/http/respond";
import { route } from "@/server/runtime/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ user: true }, async ({ runtime, user }) => {
  const { alerts } = await runtime.workspace.repositories();
  return privateJson({ data: await alerts.listRules(user) });
});

export const POST = route({ user: true, body: alertRuleInputSchema }, async ({ runtime, user, body }) => {
  const { workspace } = runtime;
  // Every check before the one write: a refused webhook leaves nothing saved.
  if (body.webhookUrl !== undefined) await validateWebhookUrl(body.webhookUrl, workspace.allowlist);
  const { alerts } = await workspace.repositories();
  const rule = await alerts.createRule(user, body);
  workspace.rulesChanged();
  return privateJson({ data: rule }, 201);
});
