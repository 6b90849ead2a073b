// GET /api/feeds – whether the user has a calendar feed; POST – a new secret feed URL (revokes the previous one);
// DELETE – revoke it
import { toErrorResponse } from "@/server/http/errors";
import { withRequestContext } from "@/server/http/request-context";
import { getWorkspace } from "@/server/workspace";
import { workspaceJson } from "@/server/workspace/http";
import { assertSameOrigin, requestUser } from "@/server/workspace/request-user";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = withRequestContext(async function GET(request: Request): Promise<Response> {
  try {
    const user = requestUser(request);
    const issuedAt = await (await getWorkspace().repositories()).feeds.issuedAt(user);
    return workspaceJson({ data: { issuedAt } });
  } catch (error) {
    return toErrorResponse(error);
  }
});

export const POST = withRequestContext(async function POST(request: Request): Promise<Response> {
  try {
    const user = requestUser(request);
    assertSameOrigin(request);
    const workspace = getWorkspace();
    const token = await (await workspace.repositories()).feeds.issue(user);
    const base = workspace.publicBaseUrl ?? new URL(request.url).origin;
    // Shown once: only the token's hash is stored.
    return workspaceJson({ data: { url: `${base}/api/feeds/${token}.ics` } }, 201);
  } catch (error) {
    return toErrorResponse(error);
  }
});

export const DELETE = withRequestContext(async function DELETE(request: Request): Promise<Response> {
  try {
    const user = requestUser(request);
    assertSameOrigin(request);
    await (await getWorkspace().repositories()).feeds.revoke(user);
    return workspaceJson(null, 204);
  } catch (error) {
    return toErrorResponse(error);
  }
});
