import "server-only";
import type { z } from "zod";
import { AppError } from "../http/errors";
import { parseParams } from "../http/parse-query";
import { assertSameOrigin, readJsonBody } from "./request-user";

/** A workspace answer: per-user data, never cached anywhere. */
export function workspaceJson(body: unknown, status = 200): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers:
      status === 204
        ? { "Cache-Control": "no-store" }
        : { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });
}

/** A mutation's body: same origin (CSRF), JSON, valid against `schema`; a clear 400 otherwise. */
export async function mutationBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  assertSameOrigin(request);
  return parseParams(await readJsonBody(request), schema);
}

/** Ids in our paths are the database's, decimal digits. */
export function pathId(raw: string, what: string): string {
  if (!/^\d{1,15}$/.test(raw)) throw new AppError(404, "not_found", `No ${what} ${raw.slice(0, 40)}.`);
  return raw;
}
