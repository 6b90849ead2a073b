import "server-only";
import type { Logger } from "pino";
import { z } from "zod";
import { AppError } from "../errors";
import { burnPasswordCheck, verifyPassword } from "./password";
import { safeNextPath, type Auth } from "./session";

/**
 * Sign-in: the request's credentials are read and validated, the attempt is reserved against the per-user and
 * per-address budgets BEFORE the password is verified (concurrent wrong guesses cannot all reach verification), and a
 * sealed session comes back. `app/api/session/route.ts` parses, calls, responds.
 */

const MAX_BODY_BYTES = 8 * 1024;

const credentialsSchema = z.object({
  username: z.string().trim().min(1, "username is required").max(64, "username is too long"),
  password: z.string().min(1, "password is required").max(1024, "password is too long"),
  next: z.string().max(2048).optional(),
});

export interface SignInRequest {
  username: string;
  password: string;
  /** Where the HTML form goes after signing in (a same-site path). */
  next: string;
  /** The HTML form (works without JavaScript) wants redirects, not JSON. */
  form: boolean;
}

/** Reads and validates the body; `form` and `next` are known even when validation fails (for the redirect). */
export async function readSignIn(
  request: Request,
  onPartial: (partial: { form: boolean; next: string }) => void,
) {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  const form = type === "application/x-www-form-urlencoded" || type === "multipart/form-data";
  onPartial({ form, next: "/" });
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > MAX_BODY_BYTES) throw new AppError("payload_too_large", "The request body is too large.");
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) throw new AppError("payload_too_large", "The request body is too large.");
  let raw: unknown;
  if (type === "application/x-www-form-urlencoded") raw = Object.fromEntries(new URLSearchParams(text));
  else if (type === "application/json" || type === "") {
    try {
      raw = JSON.parse(text) as unknown;
    } catch {
      throw new AppError("invalid_parameter", "The body must be JSON: {username, password}.");
    }
  } else throw new AppError("unsupported_media_type", "Send JSON or a form.");
  const next =
    raw && typeof raw === "object" && "next" in raw
      ? safeNextPath(String((raw as { next: unknown }).next))
      : "/";
  onPartial({ form, next });
  const parsed = credentialsSchema.safeParse(raw);
  if (!parsed.success) {
    throw new AppError("invalid_parameter", parsed.error.issues[0]?.message ?? "invalid credentials body");
  }
  return {
    username: parsed.data.username,
    password: parsed.data.password,
    next,
    form,
  } satisfies SignInRequest;
}

/** The per-user and per-address budgets of sign-in attempts (server/security/rate-limit.ts). */
export interface LoginBudget {
  reserve(username: string, address: string): Promise<{ allowed: boolean; retryAfterSeconds: number }>;
  onSuccess(username: string, address: string): Promise<void>;
}

export interface SignInDeps {
  auth: Auth;
  limiter: LoginBudget;
  /** A sign-in was refused by its budget (the rate-limit metric). */
  onRateLimited: () => void;
  log: Pick<Logger, "info" | "warn">;
}

/** Checks the credentials of `client`; returns the sealed session, or throws our 401 / 409 / 429 / 503. */
export async function signIn(
  deps: SignInDeps,
  credentials: { username: string; password: string },
  client: string,
): Promise<string> {
  const { username, password } = credentials;
  const auth = deps.auth.state();
  if (!auth.enabled) {
    throw new AppError("auth_disabled", "Sign-in is not enabled on this server; no account is needed.");
  }
  if (auth.misconfigured) {
    throw new AppError("auth_misconfigured", "Sign-in is not configured on this server (session secret).");
  }
  const reservation = await deps.limiter.reserve(username, client);
  if (!reservation.allowed) {
    deps.onRateLimited();
    throw new AppError("rate_limited", "Too many failed sign-ins; wait a while and try again.", {
      retryAfterSeconds: reservation.retryAfterSeconds,
    });
  }
  const hash = auth.users.get(username)?.hash;
  const ok = hash ? await verifyPassword(password, hash) : await burnPasswordCheck(password);
  if (!ok) {
    deps.log.warn({ user: username.slice(0, 64), client }, "auth: failed sign-in");
    throw new AppError("invalid_credentials", "Wrong user name or password.");
  }
  await deps.limiter.onSuccess(username, client);
  deps.log.info({ user: username, client }, "auth: signed in");
  return deps.auth.seal(username);
}
