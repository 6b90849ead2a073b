import "server-only";
import { z } from "zod";
import { registerSecret } from "./log";

/**
 * The server's environment, validated with zod, read once by the composition root (server/runtime/). A missing
 * UPSTREAM_BASE_URL only matters when a request needs the upstream (503 `upstream_not_configured`).
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
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z.url({ protocol: /^postgres(ql)?$/, message: "DATABASE_URL must be a postgres:// URL" }).optional(),
  ),
  CALLROOM_DATA_DIR: z.preprocess(emptyToUndefined, z.string().default("./data/pglite")),
  CALLROOM_BACKGROUND_RATE: z.preprocess(
    emptyToUndefined,
    z.coerce.number().min(0.1).max(10_000).default(25),
  ),
  CALLROOM_UPSTREAM_RATE_LIMIT: z.preprocess(
    emptyToUndefined,
    z.coerce.number().min(1).max(100_000).default(50),
  ),
  CALLROOM_ALERT_RETENTION_DAYS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(0).max(36_500).default(180),
  ),
  CALLROOM_DELIVERY_LOG_RETENTION_DAYS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(0).max(36_500).default(30),
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
  /** PostgreSQL server shared by every instance; undefined = PGlite in `dataDir`. */
  databaseUrl: string | undefined;
  /** PGlite's database folder. */
  dataDir: string;
  /** Background reads of the upstream per second at most, and the upstream's own limit (server/upstream/budget.ts). */
  backgroundRatePerSecond: number;
  upstreamRateLimitPerSecond: number;
  /** Days alert firings and delivery logs are kept (0 = for ever): server/db/retention.ts. */
  alertRetentionDays: number;
  deliveryLogRetentionDays: number;
}

export interface UpstreamConfig {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
}

/** Parses the environment once (the runtime calls it); throws with variable names and rules only, never values. */
export function readServerEnv(source: Record<string, string | undefined>): ServerEnv {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    // Only variable names and rules: the values may include the key.
    const issues = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid server environment: ${issues}`);
  }
  const e = parsed.data;
  // Known from the moment it is read, so no later log line can carry it.
  registerSecret(e.UPSTREAM_API_KEY);
  if (e.DATABASE_URL) registerSecret(decodeURIComponent(new URL(e.DATABASE_URL).password));
  return {
    upstreamBaseUrl: e.UPSTREAM_BASE_URL,
    upstreamWsUrl: e.UPSTREAM_WS_URL ?? e.UPSTREAM_BASE_URL?.replace(/^http/, "ws"),
    upstreamApiKey: e.UPSTREAM_API_KEY,
    upstreamMode: e.UPSTREAM_MODE,
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.CALLROOM_DATA_DIR,
    backgroundRatePerSecond: e.CALLROOM_BACKGROUND_RATE,
    upstreamRateLimitPerSecond: e.CALLROOM_UPSTREAM_RATE_LIMIT,
    alertRetentionDays: e.CALLROOM_ALERT_RETENTION_DAYS,
    deliveryLogRetentionDays: e.CALLROOM_DELIVERY_LOG_RETENTION_DAYS,
  };
}
