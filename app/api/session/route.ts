// /api/session – sign in (POST {username, password}), sign out (DELETE), who am I (GET)
import { readSignIn, signIn } from "@/server/auth/sign-in";
import { assertSameOrigin } from "@/server/security/same-origin";
import {
  clearedSessionCookie,
  getAuthState,
  readCookie,
  readSession,
  SESSION_COOKIE,
  sessionCookie,
} from "@/server/auth/session";
import { AppError, toErrorResponse } from "@/server/http/errors";
import { withRequestContext } from "@/server/http/request-context";
import { jsonResponse } from "@/server/http/respond";
import { getRuntime } from "@/server/runtime";
import { isHttps } from "@/server/security/client-address";
import { getLimits, requestClient } from "@/server/security/limits";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** For the HTML form (works without JavaScript): back to the login page with a reason, or on to `next`. */
function redirectTo(location: string, setCookie?: string): Response {
  const headers = new Headers({ Location: location, "Cache-Control": "no-store" });
  if (setCookie) headers.append("Set-Cookie", setCookie);
  return new Response(null, { status: 303, headers });
}

export const POST = withRequestContext(async function POST(request: Request): Promise<Response> {
  let form = false;
  let next = "/";
  try {
    assertSameOrigin(request);
    const credentials = await readSignIn(request, (partial) => {
      ({ form, next } = partial);
    });
    const { metrics, log } = getRuntime();
    const sealed = await signIn(
      { limiter: getLimits().login, metrics, log },
      credentials,
      requestClient(request),
    );
    const cookie = sessionCookie(sealed, { secure: isHttps(request.headers, request.url) });
    if (form) return redirectTo(next, cookie);
    const response = jsonResponse({ data: { username: credentials.username, next } }, "no-store");
    response.headers.append("Set-Cookie", cookie);
    return response;
  } catch (error) {
    if (form && error instanceof AppError) {
      const reason =
        error.code === "invalid_credentials" || error.code === "rate_limited" ? error.code : "unavailable";
      return redirectTo(`/login?error=${reason}&next=${encodeURIComponent(next)}`);
    }
    return toErrorResponse(error);
  }
});

export const DELETE = withRequestContext(async function DELETE(request: Request): Promise<Response> {
  try {
    assertSameOrigin(request);
    const response = jsonResponse({ data: { signedOut: true } }, "no-store");
    response.headers.append("Set-Cookie", clearedSessionCookie(isHttps(request.headers, request.url)));
    return response;
  } catch (error) {
    return toErrorResponse(error);
  }
});

export const GET = withRequestContext(async function GET(request: Request): Promise<Response> {
  try {
    const auth = getAuthState();
    const username = auth.enabled
      ? await readSession(readCookie(request.headers.get("cookie"), SESSION_COOKIE), auth)
      : null;
    return jsonResponse({ data: { authEnabled: auth.enabled, username } }, "no-store");
  } catch (error) {
    return toErrorResponse(error);
  }
});
