import "server-only";
import { resolve } from "node:path";
import { z } from "zod";
import { registerSecret } from "../log";

/**
 * Settings of the security layer (issue 6), validated with zod and read lazily (Next evaluates modules at build
 * time). Invalid values never crash a request: the schema falls back to safe defaults where one exists, and an
 * unusable session secret leaves authentication failing closed.
 */

const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "::1", "localhost", "[::1]"]);

/** True when `HOST` keeps the server on the loopback interface (the launcher's default is 127.0.0.1). */
export function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return true;
  const h = host.trim().toLowerCase();
  return LOOPBACK_HOSTS.has(h) || /^127(\.\d{1,3}){3}$/.test(h);
}

const schema = z.object({
  CALLROOM_USERS_FILE: z.preprocess(blank, z.string().default("./data/users")),
  CALLROOM_SESSION_SECRET: z.preprocess(blank, z.string().optional()),
  CALLROOM_RATE_LIMIT: z.preprocess(blank, z.coerce.number().min(0).max(100_000).catch(20).default(20)),
  CALLROOM_SSE_PER_CLIENT: z.preprocess(blank, z.coerce.number().int().min(1).max(1000).catch(6).default(6)),
  /**
   * How many reverse proxies in front of us append to X-Forwarded-For: `false`/`0` (default: none, use the socket
   * address), `true` (= 1), or a hop count.
   */
  CALLROOM_TRUST_PROXY: z.preprocess(
    blank,
    z
      .string()
      .default("false")
      .transform((v) => {
        const s = v.trim().toLowerCase();
        if (s === "true" || s === "yes") return 1;
        const n = Number(s);
        return Number.isInteger(n) && n > 0 && n < 20 ? n : 0;
      }),
  ),
  CALLROOM_METRICS_TOKEN: z.preprocess(blank, z.string().min(16).optional().catch(undefined)),
  HOST: z.preprocess(blank, z.string().optional()),
  /** Its host is accepted beside loopback's names on an open instance (server/security/host-check.ts). */
  CALLROOM_PUBLIC_URL: z.preprocess(blank, z.string().optional()),
  NODE_ENV: z.string().optional(),
});

export interface SecurityConfig {
  usersFile: string;
  /** Undefined when absent or shorter than 32 characters (iron-session's minimum). */
  sessionSecret: string | undefined;
  sessionSecretProblem: "missing" | "too_short" | null;
  /** Requests per second per client on /api; 0 = off. */
  rateLimit: number;
  ssePerClient: number;
  trustProxyHops: number;
  metricsToken: string | undefined;
  /**
   * `HOST` asks for more than loopback: authentication is mandatory. `HOST` is only what the launcher was told; the
   * sockets themselves decide who may reach an instance without accounts (server/security/exposure.ts), however the
   * server was started.
   */
  exposed: boolean;
  /** `CALLROOM_PUBLIC_URL`, as given. */
  publicUrl: string | undefined;
  dev: boolean;
}

let cached: SecurityConfig | undefined;

export function getSecurityConfig(): SecurityConfig {
  if (cached) return cached;
  const e = schema.parse(process.env);
  const secret = e.CALLROOM_SESSION_SECRET;
  registerSecret(secret);
  registerSecret(e.CALLROOM_METRICS_TOKEN);
  cached = {
    usersFile: resolve(/*turbopackIgnore: true*/ process.cwd(), e.CALLROOM_USERS_FILE),
    sessionSecret: secret && secret.length >= 32 ? secret : undefined,
    sessionSecretProblem: !secret ? "missing" : secret.length < 32 ? "too_short" : null,
    rateLimit: e.CALLROOM_RATE_LIMIT,
    ssePerClient: e.CALLROOM_SSE_PER_CLIENT,
    trustProxyHops: e.CALLROOM_TRUST_PROXY,
    metricsToken: e.CALLROOM_METRICS_TOKEN,
    exposed: !isLoopbackHost(e.HOST),
    publicUrl: e.CALLROOM_PUBLIC_URL,
    dev: e.NODE_ENV === "development",
  };
  return cached;
}

/** Tests change process.env between cases. */
export function resetSecurityConfig(): void {
  cached = undefined;
}
