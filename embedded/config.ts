/**
 * Configuration of the embedded market-data service, from the environment (docs/upstream.md §1, §7).
 * The live-call settings are validated only for shape here and passed through: the live module owns their meaning.
 * This is the one file of the service that reads `process.env` (docs/architecture.md "Configuration"): the program
 * (main.ts) calls `loadConfig()`, tests give their own variables.
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { z } from "zod";
import { CLOCK_FIRST_MS, CLOCK_LAST_MS } from "./clock";
import { PRODUCTS, type KeyPlans } from "./core/auth";
import type { Product } from "./core/types";
import { WIRE_DIALECTS, type WireDialect } from "./wire/documented";

export const DEFAULT_API_KEYS = "demo:all,demo-calendars:calendars+fundamentals";
/** Any fixed number works; fixing it makes every machine show the same demo companies and deals. */
export const DEFAULT_SEED = 20_260_214;

const PASS_THROUGH = [
  "EMBEDDED_LIVE_CALLS",
  "EMBEDDED_CALL_MINUTES",
  "EMBEDDED_ENRICH_SECONDS",
  "EMBEDDED_LINK_TTL_SECONDS",
] as const;

/** The live module's other variables, passed as given: it reads each with its own fallback (live/index.ts). */
const LIVE_TUNING = [
  "EMBEDDED_AUDIO_CACHE",
  "EMBEDDED_HISTORY_CALL_MINUTES",
  "EMBEDDED_WS_PING_SECONDS",
  "EMBEDDED_SPEECH_WORKER",
] as const;

export interface EmbeddedConfig {
  port: number;
  host: string;
  apiKeys: KeyPlans;
  rateLimitPerSecond: number;
  seed: number;
  /** `EMBEDDED_WIRE`: the contract's shapes (default) or the real service's documented ones (docs/upstream.md §8). */
  wire: WireDialect;
  /** `EMBEDDED_TRANSCRIPTS_DIR`: the folder of transcript files `POST /__embedded/calls` replays (absolute). */
  transcriptsDir?: string;
  /** `EMBEDDED_NOW`: the instant the service's clock starts at (then it runs at real speed); absent = real time. */
  nowMs?: number;
  /** The live module's variables, exactly as given (absent ones left out). */
  passThrough: Partial<Record<(typeof PASS_THROUGH)[number] | (typeof LIVE_TUNING)[number], string>>;
}

export class ConfigError extends Error {}

const unset = (value: unknown) => (value === undefined || value === "" ? undefined : value);

const integerFromEnv = (name: string, min: number, max: number, fallback: number) =>
  z.preprocess(
    unset,
    z
      .string()
      .regex(/^\d+$/, `${name} must be a whole number between ${min} and ${max}`)
      .transform(Number)
      .pipe(
        z
          .number()
          .int()
          .min(min, `${name} must be between ${min} and ${max}`)
          .max(max, `${name} must be between ${min} and ${max}`),
      )
      .default(fallback),
  );

function parseApiKeys(value: string, ctx: z.RefinementCtx): KeyPlans {
  const plans = new Map<string, Set<Product>>();
  const fail = (message: string) => {
    ctx.addIssue({ code: "custom", message: `EMBEDDED_API_KEYS: ${message}` });
    return z.NEVER;
  };
  for (const pair of value.split(",")) {
    const separator = pair.lastIndexOf(":");
    if (separator <= 0) return fail(`"${pair}" is not key:products`);
    const key = pair.slice(0, separator);
    if (!/^[\x21-\x7e]+$/.test(key) || key.includes(":"))
      return fail(`key "${key}" must be printable with no spaces or colons`);
    if (plans.has(key)) return fail(`key "${key}" is listed twice`);
    const products = new Set<Product>();
    for (const product of pair.slice(separator + 1).split("+")) {
      if (product === "all") PRODUCTS.forEach((p) => products.add(p));
      else if ((PRODUCTS as readonly string[]).includes(product)) products.add(product as Product);
      else
        return fail(
          `unknown product "${product}" for key "${key}" (use ${PRODUCTS.join(", ")} or all, joined by +)`,
        );
    }
    plans.set(key, products);
  }
  return plans;
}

const passThroughSchema = z.preprocess(
  unset,
  z
    .string()
    .regex(/^\d+(\.\d+)?$/, "must be a non-negative number")
    .optional(),
);

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const NOW_HINT = `an ISO 8601 instant with its zone between ${isoDay(CLOCK_FIRST_MS)} and ${isoDay(CLOCK_LAST_MS)}, e.g. 2026-11-27T15:00:00Z`;

const nowFromEnv = z.preprocess(
  unset,
  z
    .string()
    .trim()
    .pipe(z.iso.datetime({ offset: true, error: `EMBEDDED_NOW must be ${NOW_HINT}` }))
    .transform((text) => Date.parse(text))
    .pipe(
      z
        .number()
        .min(CLOCK_FIRST_MS, `EMBEDDED_NOW must be ${NOW_HINT} (the span the demo universe models)`)
        .max(CLOCK_LAST_MS, `EMBEDDED_NOW must be ${NOW_HINT} (the span the demo universe models)`),
    )
    .optional(),
);

const envSchema = z.object({
  EMBEDDED_PORT: integerFromEnv("EMBEDDED_PORT", 0, 65_535, 4010),
  EMBEDDED_HOST: z.preprocess(
    unset,
    z
      .string()
      .regex(/^[A-Za-z0-9.:-]+$/, "EMBEDDED_HOST must be a host name or IP address")
      .default("127.0.0.1"),
  ),
  EMBEDDED_API_KEYS: z.preprocess(unset, z.string().default(DEFAULT_API_KEYS).transform(parseApiKeys)),
  EMBEDDED_RATE_LIMIT: integerFromEnv("EMBEDDED_RATE_LIMIT", 0, 1_000_000, 50),
  EMBEDDED_SEED: integerFromEnv("EMBEDDED_SEED", 0, 2 ** 31 - 1, DEFAULT_SEED),
  EMBEDDED_WIRE: z.preprocess(
    unset,
    z
      .enum(WIRE_DIALECTS, { error: `EMBEDDED_WIRE must be one of ${WIRE_DIALECTS.join(", ")}` })
      .default("contract"),
  ),
  EMBEDDED_NOW: nowFromEnv,
  EMBEDDED_TRANSCRIPTS_DIR: z.preprocess(
    unset,
    z
      .string()
      .transform((path) => resolve(path))
      .refine((path) => isFolder(path), "EMBEDDED_TRANSCRIPTS_DIR must be an existing folder")
      .optional(),
  ),
  ...Object.fromEntries(PASS_THROUGH.map((name) => [name, passThroughSchema])),
});

/** Throws ConfigError with one line per problem. */
export function loadConfig(env: Readonly<Record<string, string | undefined>> = process.env): EmbeddedConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? "");
      return issue.message.includes(name) ? issue.message : `${name} ${issue.message}`;
    });
    throw new ConfigError(`Invalid embedded service configuration:\n  ${lines.join("\n  ")}`);
  }
  const data = parsed.data as z.infer<typeof envSchema> & Record<string, string | undefined>;
  const passThrough: EmbeddedConfig["passThrough"] = {};
  for (const name of PASS_THROUGH) {
    const value = data[name];
    if (value !== undefined) passThrough[name] = value;
  }
  for (const name of LIVE_TUNING) {
    const value = env[name];
    if (value !== undefined) passThrough[name] = value;
  }
  return {
    port: data.EMBEDDED_PORT,
    host: data.EMBEDDED_HOST,
    apiKeys: data.EMBEDDED_API_KEYS,
    rateLimitPerSecond: data.EMBEDDED_RATE_LIMIT,
    seed: data.EMBEDDED_SEED,
    wire: data.EMBEDDED_WIRE,
    ...(data.EMBEDDED_NOW === undefined ? {} : { nowMs: data.EMBEDDED_NOW }),
    ...(data.EMBEDDED_TRANSCRIPTS_DIR === undefined ? {} : { transcriptsDir: data.EMBEDDED_TRANSCRIPTS_DIR }),
    passThrough,
  };
}
