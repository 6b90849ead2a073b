// POST /api/alerts/read – mark the inbox read: { upTo?: alert id, callId? } → { data: { marked }, unread }
import { markAlertsReadSchema } from "@/lib/schemas/alerts";
import { privateJson } from "@/server/http/respond";
import { route } from "@/server/runtime/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = route({ user: true, body: markAlertsReadSchema }, async ({ runtime, user, body }) => {
  const { alerts } = await runtime.workspace.repositories();
  const marked = await alerts.markAllRead(user, body.upTo, body.callId);
  return privateJson({ data: { marked }, unread: await alerts.unreadCount(user) });
});
