// /api/session – sign in (POST {username, password}), sign out (DELETE), who am I (GET)
import { z } from "zod";
import { burnPasswordCheck, verifyPassword } from "@/server/auth/password";
import {
  clearedSessionCookie,
  getAuthState,
  readCookie,
  readSession,
  safeNextPath,
  sealSession,
  SESSION_COOKIE,
  sessionCookie,
} from "@/server/auth/session";
import { AppError, toErrorResponse } from "@/server/http/errors";
import { jsonResponse } from "@/server/http/respond";
import { getLogger } from "@/server/log";
import { countRateLimited } from "@/server/metrics/registry";
import { isHttps } from "@/server/security/client-address";
import { getLimits, requestClient } from "@/server/security/limits";
import { withRequestContext } from "@/server/http/request-context";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const MAX_BODY_BYTES = 8 * 1024;

const credentialsSchema = z.object({
  username: z.string().trim().min(1, "username is required").max(64, "username is too long"),
  password: z.string().min(1, "password is required").max(1024, "password is too long"),
  next: z.string().max(2048).optional(),
});

/**
 * Login CSRF guard: a browser always sends Origin on POST/DELETE; when present it must be our own host. (Requests
 * without Origin come from non-browser clients, which cannot ride a victim's cookies anyway.)
 */
function assertSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  if (origin === null) return;
  const host =
    request.headers.get("x-forwarded-host") ?? request.headers.get("host") ?? new URL(request.url).host;
  let originHost: string | null = null;
  try {
    originHost = new URL(origin).host;
  } catch {
    // "null" or garbage: refused below.
  }
  if (originHost !== host)
    throw new AppError(403, "cross_origin", "Cross-site requests are not accepted here.");
}

async function readCredentials(request: Request): Promise<{ form: boolean; raw: unknown }> {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  const form = type === "application/x-www-form-urlencoded" || type === "multipart/form-data";
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > MAX_BODY_BYTES) throw new AppError(413, "body_too_large", "The request body is too large.");
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES)
    throw new AppError(413, "body_too_large", "The request body is too large.");
  if (type === "application/x-www-form-urlencoded")
    return { form, raw: Object.fromEntries(new URLSearchParams(text)) };
  if (type === "application/json" || type === "") {
    try {
      return { form, raw: JSON.parse(text) as unknown };
    } catch {
      throw new AppError(400, "invalid_body", "The body must be JSON: {username, password}.");
    }
  }
  throw new AppError(415, "unsupported_media_type", "Send JSON or a form.");
}

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
    const body = await readCredentials(request);
    form = body.form;
    if (body.raw && typeof body.raw === "object" && "next" in body.raw) {
      next = safeNextPath(String((body.raw as { next: unknown }).next));
    }
    const parsed = credentialsSchema.safeParse(body.raw);
    if (!parsed.success) {
      throw new AppError(
        400,
        "invalid_parameter",
        parsed.error.issues[0]?.message ?? "invalid credentials body",
      );
    }
    const { username, password } = parsed.data;
    const auth = getAuthState();
    if (!auth.enabled) {
      throw new AppError(
        409,
        "auth_disabled",
        "Sign-in is not enabled on this server; no account is needed.",
      );
    }
    if (auth.misconfigured) {
      throw new AppError(
        503,
        "auth_misconfigured",
        "Sign-in is not configured on this server (session secret).",
      );
    }
    const limiter = getLimits().login;
    const client = requestClient(request);
    const gate = await limiter.check(username, client);
    if (!gate.allowed) {
      countRateLimited("login");
      throw new AppError(429, "rate_limited", "Too many failed sign-ins; wait a while and try again.", {
        retryAfterSeconds: gate.retryAfterSeconds,
      });
    }
    const hash = auth.users.get(username);
    const ok = hash ? await verifyPassword(password, hash) : await burnPasswordCheck(password);
    if (!ok) {
      await limiter.onFailure(username, client);
      getLogger().warn({ user: username.slice(0, 64), client }, "auth: failed sign-in");
      throw new AppError(401, "invalid_credentials", "Wrong user name or password.");
    }
    await limiter.onSuccess(username);
    const cookie = sessionCookie(await sealSession(username), {
      secure: isHttps(request.headers, request.url),
    });
    getLogger().info({ user: username, client }, "auth: signed in");
    if (form) return redirectTo(next, cookie);
    const response = jsonResponse({ data: { username, next } }, "no-store");
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
