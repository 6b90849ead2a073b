import "server-only";
import pino, { type DestinationStream, type Logger } from "pino";
import { currentRequestContext } from "./http/request-context";
import { processRecord } from "./process-slot";

/**
 * The server logger. The upstream key must never reach a log line: pino redacts the usual header/token paths, and
 * every message string and every string value (one level into nested objects and errors) is scrubbed of the key
 * itself and of `token=` query values, because a key can hide inside a URL or an error message.
 */

const REDACT_PATHS = [
  "authorization",
  "Authorization",
  "headers.authorization",
  "headers.Authorization",
  "*.headers.authorization",
  "*.headers.Authorization",
  "req.headers.authorization",
  "token",
  "*.token",
  "apiKey",
  "*.apiKey",
  "key",
];

let secrets: string[] = [];

/** Strings to remove from every log line (the upstream key). Called by the upstream client. */
export function registerSecret(secret: string | undefined): void {
  if (secret && secret.length >= 3 && !secrets.includes(secret)) secrets = [...secrets, secret];
}

export function scrub(text: string): string {
  let out = text
    .replace(/([?&]token=)[^&\s"']*/gi, "$1[REDACTED]")
    .replace(/(token\s+)[^\s"',]+/gi, "$1[REDACTED]");
  for (const s of secrets) out = out.split(s).join("[REDACTED]");
  return out;
}

function scrubValue(value: unknown, depth: number): unknown {
  if (typeof value === "string") return scrub(value);
  if (depth <= 0 || value === null || typeof value !== "object") return value;
  if (value instanceof Error) {
    return {
      type: value.name,
      message: scrub(value.message),
      stack: value.stack ? scrub(value.stack) : undefined,
    };
  }
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, depth - 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubValue(v, depth - 1)]));
}

export function createLogger(destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    name: "callroom",
    level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "warn" : "info"),
    redact: { paths: REDACT_PATHS, censor: "[REDACTED]" },
    // Lines written while a route handler serves a request carry its id (server/http/request-context.ts).
    mixin: () => {
      const context = currentRequestContext();
      return context ? { reqId: context.reqId } : {};
    },
    formatters: {
      log: (object) => scrubValue(object, 4) as Record<string, unknown>,
    },
    hooks: {
      logMethod(args, method) {
        method.apply(
          this,
          args.map((a) => (typeof a === "string" ? scrub(a) : a)) as Parameters<typeof method>,
        );
      },
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** The process's root logger (in the process slot: every bundle writes through one, and one list of secrets). */
export function getLogger(): Logger {
  const record = processRecord();
  record.logger ??= createLogger();
  return record.logger as Logger;
}

/** Swap the logger (tests capture lines to prove the key never appears). */
export function setLogger(logger: Logger | undefined): void {
  processRecord().logger = logger;
}
