import "server-only";
import { ERROR_CATALOG, type ErrorCode } from "@/lib/schemas/errors";
import { getLogger } from "./log";

export type { ErrorCode } from "@/lib/schemas/errors";

export interface AppErrorOptions {
  /** Seconds the client should wait (429-style answers); becomes the `Retry-After` header. */
  retryAfterSeconds?: number;
  /** Details safe to show the client; only ever sent on 4xx. */
  expose?: unknown;
  cause?: unknown;
}

/**
 * A brand shared by every copy of this module. Turbopack can bundle `server/http` twice (a page's server layer and a
 * route's), so an AppError thrown by one copy fails a plain `instanceof` of the other and was answered as a generic
 * 500. `Symbol.hasInstance` below makes `instanceof AppError` recognise the brand, so every check stays correct.
 */
const APP_ERROR = Symbol.for("callroom.AppError");

/**
 * An error we answer deliberately: a code of our error catalog (lib/schemas/errors.ts), which fixes its status, and a
 * human sentence.
 */
export class AppError extends Error {
  readonly [APP_ERROR] = true;

  static override [Symbol.hasInstance](value: unknown): boolean {
    return (
      typeof value === "object" && value !== null && (value as { [APP_ERROR]?: unknown })[APP_ERROR] === true
    );
  }

  readonly status: number;
  readonly retryAfterSeconds: number | undefined;
  readonly expose: unknown;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = ERROR_CATALOG[code].status;
    this.name = "AppError";
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.expose = options.expose;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

export const notFound = (message: string) => new AppError("not_found", message);
export const invalidParameter = (message: string, expose?: unknown) =>
  new AppError("invalid_parameter", message, { expose });

/**
 * Our error body `{ error: { code, message } }`. Unknown errors become a generic 500 (their text may hold upstream
 * details or the key, so it is logged, scrubbed, never sent). `expose` details only travel on 4xx.
 */
export function toErrorResponse(error: unknown): Response {
  const headers = new Headers({ "Content-Type": "application/json", "Cache-Control": "no-store" });
  if (error instanceof AppError) {
    if (error.status >= 500) getLogger().warn({ code: error.code, status: error.status }, error.message);
    const body: { error: { code: string; message: string; details?: unknown } } = {
      error: { code: error.code, message: error.message },
    };
    if (error.status < 500 && error.expose !== undefined) body.error.details = error.expose;
    if (error.retryAfterSeconds !== undefined)
      headers.set("Retry-After", String(Math.ceil(error.retryAfterSeconds)));
    return new Response(JSON.stringify(body), { status: error.status, headers });
  }
  getLogger().error({ err: error }, "unhandled error in route handler");
  return new Response(
    JSON.stringify({ error: { code: "internal_error", message: "Something went wrong on our side." } }),
    { status: 500, headers },
  );
}
