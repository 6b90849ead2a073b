// GET /api/alerts/push – the VAPID public key to subscribe with; POST – save this browser's subscription; DELETE – forget it
import { z } from "zod";
import { checkPushEndpoint, pushSubscriptionSchema } from "@/server/alerts/push";
import { noContent, privateJson } from "@/server/http/respond";
import { route } from "@/server/runtime/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ user: true }, async ({ runtime }) =>
  privateJson({ data: { publicKey: await runtime.workspace.pushPublicKey() } }),
);

export const POST = route({ user: true, body: pushSubscriptionSchema }, async ({ runtime, user, body }) => {
  const { workspace } = runtime;
  // Push endpoints come from the browser: only the browsers' push services, or CALLROOM_PUSH_ALLOWLIST's hosts.
  checkPushEndpoint(body.endpoint, workspace.pushAllowlist);
  // At most 20 per user; an endpoint another user holds is a 409, never taken over.
  await (await workspace.repositories()).alerts.savePushSubscription(user, body);
  return privateJson({ data: { endpoint: body.endpoint } }, 201);
});

export const DELETE = route(
  { user: true, body: z.object({ endpoint: z.string().max(2000) }) },
  async ({ runtime, user, body }) => {
    await (await runtime.workspace.repositories()).alerts.removePushSubscription(user, body.endpoint);
    return noContent();
  },
);
