// /api/session – sign in (POST {username, password}), sign out (DELETE), who am I (GET)
import { clearedSessionCookie, readCookie, SESSION_COOKIE, sessionCookie } from "@/server/auth/session";
import { readSignIn, signIn } from "@/server/auth/sign-in";
import { AppError } from "@/server/errors";
import { privateJson } from "@/server/http/respond";
import { route } from "@/server/runtime/route";
import { isHttps } from "@/server/security/client-address";
import { assertSameOrigin } from "@/server/security/same-origin";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** For the HTML form (works without JavaScript): back to the login page with a reason, or on to `next`. */
function redirectTo(location: string, setCookie?: string): Response {
  const headers = new Headers({ Location: location, "Cache-Control": "no-store" });
  if (setCookie) headers.append("Set-Cookie", setCookie);
  return new Response(null, { status: 303, headers });
}

export const POST = route({}, async ({ runtime, request }) => {
  let form = false;
  let next = "/";
  try {
    // The body is a form or JSON (read by readSignIn), so the check of origin is made here, before reading it.
    assertSameOrigin(request, runtime.config.security.trustProxyHops);
    const credentials = await readSignIn(request, (partial) => {
      ({ form, next } = partial);
    });
    const { auth, limits, metrics, log, gate } = runtime;
    const sealed = await signIn(
      { auth, limiter: limits.login, onRateLimited: () => metrics.countRateLimited("login"), log },
      credentials,
      gate.client(request),
    );
    const cookie = sessionCookie(sealed, { secure: isHttps(request.headers, request.url) });
    if (form) return redirectTo(next, cookie);
    const response = privateJson({ data: { username: credentials.username, next } });
    response.headers.append("Set-Cookie", cookie);
    return response;
  } catch (error) {
    if (form && error instanceof AppError) {
      const reason =
        error.code === "invalid_credentials" || error.code === "rate_limited" ? error.code : "unavailable";
      return redirectTo(`/login?error=${reason}&next=${encodeURIComponent(next)}`);
    }
    throw error;
  }
});

export const DELETE = route({ mutation: true }, ({ request }) => {
  const response = privateJson({ data: { signedOut: true } });
  response.headers.append("Set-Cookie", clearedSessionCookie(isHttps(request.headers, request.url)));
  return response;
});

export const GET = route({}, async ({ runtime, request }) => {
  const auth = runtime.auth.state();
  const username = auth.enabled
    ? ((await runtime.auth.readSessionUser(readCookie(request.headers.get("cookie"), SESSION_COOKIE), auth))
        ?.name ?? null)
    : null;
  return privateJson({ data: { authEnabled: auth.enabled, username } });
});
