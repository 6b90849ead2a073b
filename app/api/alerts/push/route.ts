// GET /api/alerts/push – the VAPID public key to subscribe with; POST – save this browser's subscription; DELETE – forget it
import { z } from "zod";
import { checkPushEndpoint, pushSubscriptionSchema } from "@/server/alerts/push";
import { toErrorResponse } from "@/server/http/errors";
import { withRequestContext } from "@/server/http/request-context";
import { getWorkspace } from "@/server/workspace";
import { mutationBody, workspaceJson } from "@/server/workspace/http";
import { requestUser } from "@/server/workspace/request-user";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = withRequestContext(async function GET(request: Request): Promise<Response> {
  try {
    requestUser(request);
    return workspaceJson({ data: { publicKey: await getWorkspace().pushPublicKey() } });
  } catch (error) {
    return toErrorResponse(error);
  }
});

export const POST = withRequestContext(async function POST(request: Request): Promise<Response> {
  try {
    const user = requestUser(request);
    const subscription = await mutationBody(request, pushSubscriptionSchema);
    const workspace = getWorkspace();
    // Push endpoints come from the browser: only the browsers' push services, or CALLROOM_PUSH_ALLOWLIST's hosts.
    checkPushEndpoint(subscription.endpoint, workspace.pushAllowlist);
    // At most 20 per user; an endpoint another user holds is a 409, never taken over.
    await (await workspace.repositories()).alerts.savePushSubscription(user, subscription);
    return workspaceJson({ data: { endpoint: subscription.endpoint } }, 201);
  } catch (error) {
    return toErrorResponse(error);
  }
});

export const DELETE = withRequestContext(async function DELETE(request: Request): Promise<Response> {
  try {
    const user = requestUser(request);
    const { endpoint } = await mutationBody(request, z.object({ endpoint: z.string().max(2000) }));
    await (await getWorkspace().repositories()).alerts.removePushSubscription(user, endpoint);
    return workspaceJson(null, 204);
  } catch (error) {
    return toErrorResponse(error);
  }
});
