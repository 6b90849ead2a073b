import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import pino, { type DestinationStream, type Logger } from "pino";
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

/** The structured-logging calls a part makes (pino's `Logger` has them; tests pass a quiet object). */
export interface StructuredLog {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

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

export function createLogger(destination?: DestinationStream, level = "info"): Logger {
  const options: pino.LoggerOptions = {
    name: "callroom",
    level,
    redact: { paths: REDACT_PATHS, censor: "[REDACTED]" },
    // Lines written while a route handler serves a request carry its id (`withRequestId`).
    mixin: () => {
      const context = logging().requests.getStore();
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

/**
 * The process's logging, in the process slot: Next bundles proxy.ts and each route handler apart, and every bundle
 * must write through one root logger, with one list of secrets, and see the request ids the others set.
 */
interface ProcessLogging {
  root: Logger | undefined;
  /**
   * The request a log line belongs to. proxy.ts gives every request an id (`x-request-id`, set there only) and logs
   * it on its access line; route handlers run inside `withRequestId` (server/runtime/route.ts), and every line
   * written meanwhile (the route's own, the upstream client's, the cache's) carries it, so one id finds everything a
   * request caused. A coalesced upstream call carries the id of the request that started it.
   */
  requests: AsyncLocalStorage<{ reqId: string }>;
}

function logging(): ProcessLogging {
  const record = processRecord();
  record.logger ??= { root: undefined, requests: new AsyncLocalStorage() } satisfies ProcessLogging;
  return record.logger as ProcessLogging;
}

/** The process's root logger. */
export function getLogger(): Logger {
  const l = logging();
  l.root ??= createLogger();
  return l.root;
}

/** Installs the root logger: the runtime's start (at the configured level); tests capturing lines. */
export function installLogger(logger: Logger | undefined): void {
  logging().root = logger;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** Runs `fn` as part of request `reqId` (a malformed id is ignored): its log lines carry the id. */
export function withRequestId<R>(reqId: string | null, fn: () => R): R {
  if (!reqId || !REQUEST_ID.test(reqId)) return fn();
  return logging().requests.run({ reqId }, fn);
}
