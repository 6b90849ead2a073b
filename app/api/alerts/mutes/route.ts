// GET /api/alerts/mutes – the user's mutes in force; POST – mute a call, or a company until its call ends
import { alertMuteInputSchema } from "@/lib/schemas/alerts";
import { privateJson } from "@/server/http/respond";
import { route } from "@/server/runtime/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ user: true }, async ({ runtime, user }) => {
  const { alerts } = await runtime.workspace.repositories();
  return privateJson({ data: await alerts.listMutes(user) });
});

export const POST = route({ user: true, body: alertMuteInputSchema }, async ({ runtime, user, body }) => {
  const { workspace } = runtime;
  const { alerts } = await workspace.repositories();
  const { mute, marked } = await alerts.createMute(user, body);
  workspace.rulesChanged();
  return privateJson({ data: mute, marked, unread: await alerts.unreadCount(user) }, 201);
});
