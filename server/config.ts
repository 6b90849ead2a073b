import "server-only";
import { resolve } from "node:path";
import { z } from "zod";

/**
 * Every environment variable the server process reads, validated once with zod by `readConfig`: the composition
 * root builds the runtime from its result (server/runtime/), and the launcher (scripts/launch.mjs) checks the same
 * result before it starts anything. Nothing else reads the environment. README's "Environment" lists the variables.
 *
 * A value that cannot be used never keeps the dashboard from serving pages: the upstream variables make the upstream
 * unconfigured (every upstream call answers 503 `upstream_not_configured`, `upstream.problem` says why), limits fall
 * back to their defaults, an unusable session secret leaves sign-in failing closed. Only `REDIS_URL` and
 * `DATABASE_URL` fail loudly (a deployment that names a shared store must not quietly run without it). Problems name
 * variables and rules, never values: a value may be a key.
 */

export type Env = Record<string, string | undefined>;

export const DEFAULT_CACHE_LIMITS = { maxBytes: 256 * 1024 * 1024, maxEntryBytes: 2 * 1024 * 1024 };
export const DEFAULT_NOTES_PER_USER = 5_000;

export interface Config {
  upstream: {
    /** `UPSTREAM_BASE_URL` is set, usable or not: without it the launcher starts the embedded service. */
    configured: boolean;
    /** No trailing slash; undefined when not configured. */
    baseUrl: string | undefined;
    /** Defaults to the base URL with the ws/wss scheme. */
    wsUrl: string | undefined;
    apiKey: string | undefined;
    /** `embedded` when the launcher started the embedded service, else `remote`. */
    mode: "embedded" | "remote";
    timeoutMs: number;
    /** Why the upstream variables were not usable (variable names and rules only); null when they were. */
    problem: string | null;
    /** Background reads of the upstream per second at most, and the upstream's own limit (server/upstream/budget.ts). */
    backgroundRatePerSecond: number;
    rateLimitPerSecond: number;
  };
  database: {
    /** PostgreSQL server shared by every instance; undefined = PGlite in `dataDir`. */
    url: string | undefined;
    dataDir: string;
  };
  /** Days alert firings and delivery logs are kept (0 = for ever): server/db/retention.ts. */
  retention: { alertDays: number; deliveryLogDays: number };
  /**
   * `HOST`: where the launcher was told to listen; `dev`: NODE_ENV=development; `publicUrl`: CALLROOM_PUBLIC_URL as
   * given (its host is accepted beside loopback's names on an open instance, server/security/host-check.ts).
   */
  server: {
    host: string;
    port: number;
    dev: boolean;
    publicUrl: string | undefined;
    /** `NEXT_DIST_DIR`: the build's folder (next.config.ts reads it too, as Next loads that file before our code). */
    distDir: string;
  };
  security: {
    usersFile: string;
    /** Undefined when absent or shorter than 32 characters (iron-session's minimum). */
    sessionSecret: string | undefined;
    sessionSecretProblem: "missing" | "too_short" | null;
    /** Requests per second per client on /api; 0 = off. */
    rateLimit: number;
    ssePerClient: number;
    /** How many reverse proxies in front of us append to X-Forwarded-For (0: trust no forwarding header). */
    trustProxyHops: number;
    metricsToken: string | undefined;
    /**
     * `HOST` asks for more than loopback: authentication is mandatory. `HOST` is only what the launcher was told;
     * the sockets themselves decide who may reach an instance without accounts (server/security/exposure.ts).
     */
    exposed: boolean;
  };
  cache: { maxBytes: number; maxEntryBytes: number };
  /** Several instances as one (server/scale/); undefined = one instance. */
  redisUrl: string | undefined;
  logLevel: string;
  workspace: {
    /** `CALLROOM_WEBHOOK_ALLOWLIST` as written: hosts a webhook may reach although private. */
    webhookAllowlist: string | undefined;
    /** `CALLROOM_PUSH_ALLOWLIST` as written: push endpoints accepted beside the browsers' push services. */
    pushAllowlist: string | undefined;
    /** Notes a user may keep, across all calls. */
    notesPerUser: number;
    /** The Web Push key pair, when configured (checked when push is first used: server/alerts/push.ts). */
    vapid: { publicKey: string | undefined; privateKey: string | undefined };
    /** Absolute origin for links in webhooks and the calendar feed; null = webhooks carry none. */
    publicBaseUrl: string | null;
    /** The contact in Web Push's VAPID claims. */
    alertsContact: string;
  };
  /** `npm run bench` only (server/live/bench-hook.ts): null unless CALLROOM_BENCH_HOOKS=1. */
  benchHooks: { port: number } | null;
  /** What no log line may carry (the logger scrubs them): the upstream key, the database password, our secrets. */
  secrets: string[];
}

const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blank, schema.optional());

const upstreamSchema = z.object({
  UPSTREAM_BASE_URL: optional(
    z
      .url({ protocol: /^https?$/, message: "UPSTREAM_BASE_URL must be an http(s) URL" })
      .transform((u) => u.replace(/\/+$/, "")),
  ),
  UPSTREAM_WS_URL: optional(
    z
      .url({ protocol: /^wss?$/, message: "UPSTREAM_WS_URL must be a ws(s) URL" })
      .transform((u) => u.replace(/\/+$/, "")),
  ),
  UPSTREAM_API_KEY: optional(z.string()),
  UPSTREAM_MODE: z.preprocess(blank, z.enum(["embedded", "remote"]).default("remote")),
  UPSTREAM_TIMEOUT_MS: z.preprocess(blank, z.coerce.number().int().min(100).max(120_000).default(8000)),
});

/** Of the background budget: an unusable value falls back to the default rather than failing the upstream. */
const rate = (min: number, max: number, fallback: number) =>
  z.preprocess(blank, z.coerce.number().min(min).max(max).catch(fallback).default(fallback));

const bytes = (fallback: number) =>
  z.preprocess(
    blank,
    z.coerce
      .number()
      .int()
      .min(1024)
      .max(2 ** 40)
      .catch(fallback)
      .default(fallback),
  );

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "::1", "localhost", "[::1]"]);

/** True when `HOST` keeps the server on the loopback interface (the launcher's default is 127.0.0.1). */
export function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return true;
  const h = host.trim().toLowerCase();
  return LOOPBACK_HOSTS.has(h) || /^127(\.\d{1,3}){3}$/.test(h);
}

/** `CALLROOM_TRUST_PROXY` as a hop count: `true`/`yes` = 1, a positive integer below 20 = itself, else 0. */
export function trustedProxyHops(value: string | undefined): number {
  const s = (value ?? "").trim().toLowerCase();
  if (s === "true" || s === "yes") return 1;
  const n = Number(s);
  return Number.isInteger(n) && n > 0 && n < 20 ? n : 0;
}

const restSchema = z.object({
  DATABASE_URL: optional(
    z.url({ protocol: /^postgres(ql)?$/, message: "DATABASE_URL must be a postgres:// URL" }),
  ),
  CALLROOM_DATA_DIR: z.preprocess(blank, z.string().default("./data/pglite")),
  CALLROOM_BACKGROUND_RATE: rate(0.1, 10_000, 25),
  CALLROOM_UPSTREAM_RATE_LIMIT: rate(1, 100_000, 50),
  CALLROOM_ALERT_RETENTION_DAYS: z.preprocess(blank, z.coerce.number().int().min(0).max(36_500).default(180)),
  CALLROOM_DELIVERY_LOG_RETENTION_DAYS: z.preprocess(
    blank,
    z.coerce.number().int().min(0).max(36_500).default(30),
  ),
  HOST: z.preprocess(blank, z.string().default("127.0.0.1")),
  PORT: z.preprocess(blank, z.coerce.number().int().min(0).max(65_535).catch(3000).default(3000)),
  NODE_ENV: z.string().optional(),
  NEXT_DIST_DIR: z.preprocess(blank, z.string().default(".next")),
  CALLROOM_USERS_FILE: z.preprocess(blank, z.string().default("./data/users")),
  CALLROOM_SESSION_SECRET: optional(z.string()),
  CALLROOM_RATE_LIMIT: z.preprocess(blank, z.coerce.number().min(0).max(100_000).catch(20).default(20)),
  CALLROOM_SSE_PER_CLIENT: z.preprocess(blank, z.coerce.number().int().min(1).max(1000).catch(6).default(6)),
  CALLROOM_TRUST_PROXY: z.string().optional(),
  CALLROOM_METRICS_TOKEN: z.preprocess(blank, z.string().min(16).optional().catch(undefined)),
  CALLROOM_CACHE_MAX_BYTES: bytes(DEFAULT_CACHE_LIMITS.maxBytes),
  CALLROOM_CACHE_MAX_ENTRY_BYTES: bytes(DEFAULT_CACHE_LIMITS.maxEntryBytes),
  REDIS_URL: optional(z.string().regex(/^rediss?:\/\//, "REDIS_URL must be a redis:// or rediss:// URL")),
  LOG_LEVEL: optional(z.string()),
  CALLROOM_WEBHOOK_ALLOWLIST: z.string().optional(),
  CALLROOM_PUSH_ALLOWLIST: z.string().optional(),
  CALLROOM_NOTES_PER_USER: z.preprocess(
    blank,
    z.coerce.number().int().min(1).catch(DEFAULT_NOTES_PER_USER).default(DEFAULT_NOTES_PER_USER),
  ),
  CALLROOM_VAPID_PUBLIC_KEY: optional(z.string().trim()),
  CALLROOM_VAPID_PRIVATE_KEY: optional(z.string().trim()),
  CALLROOM_PUBLIC_URL: optional(z.string().trim()),
  CALLROOM_ALERTS_CONTACT: z.string().optional(),
  CALLROOM_BENCH_HOOKS: z.string().optional(),
  CALLROOM_BENCH_HOOK_PORT: z.preprocess(
    blank,
    z.coerce.number().int().min(0).max(65_535).catch(0).default(0),
  ),
});

/** Variable names and rules of a failed parse, never the values. */
function describe(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
}

/** Reads the configuration from `env` (the process's environment, or a test's). Throws only for a shared store. */
export function readConfig(env: Env): Config {
  const rest = restSchema.safeParse(env);
  if (!rest.success) throw new Error(`Invalid server environment: ${describe(rest.error)}`);
  const e = rest.data;
  const up = upstreamSchema.safeParse(env);
  const u = up.success ? up.data : null;
  const secret = e.CALLROOM_SESSION_SECRET;
  const publicBaseUrl = e.CALLROOM_PUBLIC_URL?.trim().replace(/\/+$/, "");
  return {
    upstream: {
      configured: blank(env.UPSTREAM_BASE_URL) !== undefined,
      baseUrl: u?.UPSTREAM_BASE_URL,
      wsUrl: u?.UPSTREAM_WS_URL ?? u?.UPSTREAM_BASE_URL?.replace(/^http/, "ws"),
      apiKey: u?.UPSTREAM_API_KEY,
      mode: u?.UPSTREAM_MODE ?? "remote",
      timeoutMs: u?.UPSTREAM_TIMEOUT_MS ?? 8000,
      problem: up.success ? null : `Invalid server environment: ${describe(up.error)}`,
      backgroundRatePerSecond: e.CALLROOM_BACKGROUND_RATE,
      rateLimitPerSecond: e.CALLROOM_UPSTREAM_RATE_LIMIT,
    },
    database: { url: e.DATABASE_URL, dataDir: e.CALLROOM_DATA_DIR },
    retention: {
      alertDays: e.CALLROOM_ALERT_RETENTION_DAYS,
      deliveryLogDays: e.CALLROOM_DELIVERY_LOG_RETENTION_DAYS,
    },
    server: {
      host: e.HOST,
      port: e.PORT,
      dev: e.NODE_ENV === "development",
      publicUrl: e.CALLROOM_PUBLIC_URL,
      distDir: e.NEXT_DIST_DIR,
    },
    security: {
      usersFile: resolve(/*turbopackIgnore: true*/ process.cwd(), e.CALLROOM_USERS_FILE),
      sessionSecret: secret && secret.length >= 32 ? secret : undefined,
      sessionSecretProblem: !secret ? "missing" : secret.length < 32 ? "too_short" : null,
      rateLimit: e.CALLROOM_RATE_LIMIT,
      ssePerClient: e.CALLROOM_SSE_PER_CLIENT,
      trustProxyHops: trustedProxyHops(e.CALLROOM_TRUST_PROXY),
      metricsToken: e.CALLROOM_METRICS_TOKEN,
      exposed: !isLoopbackHost(e.HOST),
    },
    // One answer may not take more than the whole budget.
    cache: {
      maxBytes: e.CALLROOM_CACHE_MAX_BYTES,
      maxEntryBytes: Math.min(e.CALLROOM_CACHE_MAX_ENTRY_BYTES, e.CALLROOM_CACHE_MAX_BYTES),
    },
    redisUrl: e.REDIS_URL?.trim(),
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === "test" ? "warn" : "info"),
    workspace: {
      webhookAllowlist: e.CALLROOM_WEBHOOK_ALLOWLIST,
      pushAllowlist: e.CALLROOM_PUSH_ALLOWLIST,
      notesPerUser: e.CALLROOM_NOTES_PER_USER,
      vapid: { publicKey: e.CALLROOM_VAPID_PUBLIC_KEY, privateKey: e.CALLROOM_VAPID_PRIVATE_KEY },
      publicBaseUrl: publicBaseUrl || null,
      alertsContact: e.CALLROOM_ALERTS_CONTACT || "mailto:alerts@callroom.invalid",
    },
    benchHooks: e.CALLROOM_BENCH_HOOKS === "1" ? { port: e.CALLROOM_BENCH_HOOK_PORT } : null,
    secrets: [
      // The key even when the other upstream variables are unusable: it is still the key.
      blank(env.UPSTREAM_API_KEY),
      secret,
      e.CALLROOM_METRICS_TOKEN,
      e.CALLROOM_VAPID_PRIVATE_KEY,
      e.DATABASE_URL ? decodeURIComponent(new URL(e.DATABASE_URL).password) : undefined,
    ].filter((s): s is string => typeof s === "string" && s.length > 0),
  };
}
