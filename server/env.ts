import "server-only";
import { z } from "zod";
import { AppError } from "./http/errors";
import { registerSecret } from "./log";

/**
 * The server's environment, validated with zod and read lazily: Next evaluates modules at build time, when the
 * upstream variables are legitimately absent, so nothing may throw on import. A missing UPSTREAM_BASE_URL only
 * matters when a request needs the upstream (`requireUpstream()` → 503 `upstream_not_configured`).
 */

const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

const envSchema = z.object({
  UPSTREAM_BASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .url({ protocol: /^https?$/, message: "UPSTREAM_BASE_URL must be an http(s) URL" })
      .transform((u) => u.replace(/\/+$/, ""))
      .optional(),
  ),
  UPSTREAM_WS_URL: z.preprocess(
    emptyToUndefined,
    z
      .url({ protocol: /^wss?$/, message: "UPSTREAM_WS_URL must be a ws(s) URL" })
      .transform((u) => u.replace(/\/+$/, ""))
      .optional(),
  ),
  UPSTREAM_API_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  UPSTREAM_MODE: z.preprocess(emptyToUndefined, z.enum(["embedded", "remote"]).default("remote")),
  UPSTREAM_TIMEOUT_MS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(100).max(120_000).default(8000),
  ),
});

export interface ServerEnv {
  /** No trailing slash; undefined when not configured. */
  upstreamBaseUrl: string | undefined;
  /** Defaults to the base URL with the ws/wss scheme. */
  upstreamWsUrl: string | undefined;
  upstreamApiKey: string | undefined;
  /** `embedded` when the launcher started the embedded service, else `remote`. */
  upstreamMode: "embedded" | "remote";
  upstreamTimeoutMs: number;
}

export interface UpstreamConfig {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
}

let cached: ServerEnv | undefined;

export function getEnv(): ServerEnv {
  if (cached) return cached;
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) {
    // Only variable names and rules: the values may include the key.
    const issues = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid server environment: ${issues}`);
  }
  const e = parsed.data;
  // Known from the moment it is read, so no later log line can carry it.
  registerSecret(e.UPSTREAM_API_KEY);
  cached = {
    upstreamBaseUrl: e.UPSTREAM_BASE_URL,
    upstreamWsUrl: e.UPSTREAM_WS_URL ?? e.UPSTREAM_BASE_URL?.replace(/^http/, "ws"),
    upstreamApiKey: e.UPSTREAM_API_KEY,
    upstreamMode: e.UPSTREAM_MODE,
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
  };
  return cached;
}

/** Forget the cached environment (tests change process.env between cases). */
export function resetEnvCache(): void {
  cached = undefined;
}

/** The upstream settings a request needs, or our 503 when they are missing. */
export function requireUpstream(): UpstreamConfig {
  let env: ServerEnv;
  try {
    env = getEnv();
  } catch {
    throw notConfigured();
  }
  if (!env.upstreamBaseUrl || !env.upstreamApiKey) throw notConfigured();
  return { baseUrl: env.upstreamBaseUrl, apiKey: env.upstreamApiKey, timeoutMs: env.upstreamTimeoutMs };
}

function notConfigured() {
  return new AppError(
    503,
    "upstream_not_configured",
    "The market-data service is not configured on this server.",
  );
}
