import "server-only";
import { sealData, unsealData } from "iron-session";
import type { UserEntry, UsersFile } from "./users";

/**
 * Sessions: an iron-session seal (AES-256-CBC + HMAC-SHA256 over the JSON) in an HttpOnly cookie; the server keeps no
 * session store. SameSite=Lax, not Strict: with Strict, a link to the dashboard from mail or chat would arrive
 * without the cookie and bounce a signed-in analyst to the login page; Lax still withholds the cookie from
 * cross-site subresource requests and POSTs, and our only state-changing routes (`/api/session`) also check Origin.
 */

export const SESSION_COOKIE = "callroom_session";
/** Who every request belongs to while authentication does not apply (no users, on loopback). */
export const LOCAL_USER = "local";
export const SESSION_TTL_SECONDS = 12 * 60 * 60;

interface SessionData {
  /** User name. */
  u: string;
  /**
   * The user's key (their stable id, server/auth/users.ts) when the session was issued: a name removed and added
   * again is another user, whose key differs, so the old user's cookies do not open the new account.
   */
  k: string;
  /** Issued at, ms. */
  iat: number;
}

export interface SessionUser {
  name: string;
  /** What the user's workspace rows are keyed by. */
  key: string;
}

export interface AuthState {
  /** Authentication applies: the users file has a user, or the server listens beyond loopback. */
  enabled: boolean;
  /** Enabled but unusable (no or too short secret): every protected request is refused. */
  misconfigured: boolean;
  users: Map<string, UserEntry>;
}

export interface Auth {
  /** Whether authentication applies now, and the users (the file is re-read when it changes). */
  state(): AuthState;
  /** A sealed session for `username`; throws when no usable session secret is configured. */
  seal(username: string, now?: number): Promise<string>;
  /**
   * The session's user, or null: bad seal, expired, or the user has since been removed from the file (or removed
   * and added again: a new key).
   */
  readSessionUser(cookieValue: string | undefined, state?: AuthState): Promise<SessionUser | null>;
}

export interface AuthSettings {
  users: UsersFile;
  /** Undefined when absent or too short to use (server/config.ts). */
  sessionSecret: string | undefined;
  /** The server was told to listen beyond loopback: authentication is mandatory. */
  exposed: boolean;
}

/** Sessions over the configured users file and secret; built once by the composition root. */
export function createAuth(settings: AuthSettings): Auth {
  const secret = settings.sessionSecret;
  const state = (): AuthState => {
    const users = settings.users.read();
    const enabled = users.size > 0 || settings.exposed;
    return { enabled, misconfigured: enabled && !secret, users };
  };
  return {
    state,
    async seal(username, now = Date.now()) {
      if (!secret) throw new Error("CALLROOM_SESSION_SECRET is not set");
      const key = state().users.get(username)?.key ?? "";
      return sealData({ u: username, k: key, iat: now } satisfies SessionData, {
        password: secret,
        ttl: SESSION_TTL_SECONDS,
      });
    },
    async readSessionUser(cookieValue, current = state()) {
      if (!cookieValue || !secret || cookieValue.length > 4096) return null;
      try {
        const data = await unsealData<Partial<SessionData>>(cookieValue, {
          password: secret,
          ttl: SESSION_TTL_SECONDS,
        });
        if (typeof data.u !== "string" || typeof data.k !== "string" || typeof data.iat !== "number")
          return null;
        if (Date.now() - data.iat > SESSION_TTL_SECONDS * 1000) return null;
        const entry = current.users.get(data.u);
        return entry && entry.key === data.k ? { name: data.u, key: entry.key } : null;
      } catch {
        return null;
      }
    },
  };
}

/** `Set-Cookie` value. Secure when the request came over HTTPS (directly or through a trusted proxy). */
export function sessionCookie(value: string, options: { secure: boolean; maxAgeSeconds?: number }): string {
  const parts = [
    `${SESSION_COOKIE}=${value}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${options.maxAgeSeconds ?? SESSION_TTL_SECONDS}`,
  ];
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}

export function clearedSessionCookie(secure: boolean): string {
  return sessionCookie("", { secure, maxAgeSeconds: 0 });
}

export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Where to go after login: only a same-origin relative path (`/calls?x=1`), never `//evil`, `/\evil`, a scheme, or
 * a control character; anything else goes to `/`.
 */
export function safeNextPath(next: string | null | undefined): string {
  if (
    !next ||
    next.length > 2048 ||
    !next.startsWith("/") ||
    next.startsWith("//") ||
    next.startsWith("/\\")
  ) {
    return "/";
  }
  if (/[\u0000-\u001f\u007f\\]/.test(next)) return "/";
  try {
    const base = "http://callroom.invalid";
    const url = new URL(next, base);
    if (url.origin !== base) return "/";
    if (url.pathname === "/login" || url.pathname.startsWith("/api/")) return "/";
    return url.pathname + url.search + url.hash;
  } catch {
    return "/";
  }
}
