// GET /api/feeds – whether the user has a calendar feed; POST – a new secret feed URL (revokes the previous one);
// DELETE – revoke it
import { noContent, privateJson } from "@/server/http/respond";
import { route } from "@/server/runtime/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ user: true }, async ({ runtime, user }) => {
  const issuedAt = await (await runtime.workspace.repositories()).feeds.issuedAt(user);
  return privateJson({ data: { issuedAt } });
});

export const POST = route({ user: true, mutation: true }, async ({ runtime, request, user }) => {
  const { workspace } = runtime;
  const token = await (await workspace.repositories()).feeds.issue(user);
  const base = workspace.publicBaseUrl ?? browsingOrigin(request);
  // Shown once: only the token's hash is stored.
  return privateJson({ data: { url: `${base}/api/feeds/${token}.ics` } }, 201);
});

export const DELETE = route({ user: true, mutation: true }, async ({ runtime, user }) => {
  await (await runtime.workspace.repositories()).feeds.revoke(user);
  return noContent();
});

/**
 * The address the user is browsing: the Host they asked for (which the gate has already checked against DNS
 * rebinding), not the server's own idea of itself, which behind the custom server read `localhost` to someone
 * browsing 127.0.0.1. `CALLROOM_PUBLIC_URL`, when set, wins over both.
 */
function browsingOrigin(request: Request): string {
  const url = new URL(request.url);
  const host = request.headers.get("host");
  return host && /^[A-Za-z0-9.\-\[\]:]+$/.test(host) ? `${url.protocol}//${host}` : url.origin;
}
