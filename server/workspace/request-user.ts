import "server-only";
import { getAuthState } from "../auth/session";
import { AppError } from "../http/errors";

/**
 * Who a workspace request belongs to. The proxy (proxy.ts) has already checked the session and passes the user on in
 * `x-callroom-user` (it drops any such header a client sends); with no users configured the dashboard is open and
 * everything belongs to the one local user.
 */

export const LOCAL_USER = "local";

export function requestUser(request: Request): string {
  const user = request.headers.get("x-callroom-user");
  if (user) return user;
  if (!getAuthState().enabled) return LOCAL_USER;
  throw new AppError(401, "unauthenticated", "Sign in to use Callroom.");
}

export { assertSameOrigin } from "../security/same-origin";

/** Reads a JSON body (at most `maxBytes`); anything else is a 400 before any validation. */
export async function readJsonBody(request: Request, maxBytes = 64_000): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type))
    throw new AppError(415, "unsupported_media_type", "Send the body as application/json.");
  const text = await request.text();
  if (Buffer.byteLength(text) > maxBytes)
    throw new AppError(413, "payload_too_large", `The body must be at most ${maxBytes} bytes.`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError(400, "invalid_parameter", "The body is not valid JSON.");
  }
}
