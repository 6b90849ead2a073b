import "server-only";
import type { z } from "zod";
import { AppError } from "../errors";

/**
 * Validates a query string with one of our zod schemas (lib/schemas). A failure becomes 400 `invalid_parameter`
 * whose message is the first rule broken, naming our parameter (`pageSize must be between 1 and 1000`).
 * Empty values (`?from=`) count as absent, since forms and URL builders produce them for cleared fields; a repeated
 * parameter takes its last value.
 */
export function parseQuery<S extends z.ZodType>(searchParams: URLSearchParams, schema: S): z.output<S> {
  const raw: Record<string, string> = {};
  for (const [name, value] of searchParams) {
    if (value.trim() === "") delete raw[name];
    else raw[name] = value;
  }
  return parseParams(raw, schema);
}

export function parseParams<S extends z.ZodType>(raw: unknown, schema: S): z.output<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const name = issue?.path.map(String).join(".") ?? "";
  let message = issue?.message ?? "invalid request";
  // Our schemas name the parameter in every message; zod's generic ones (missing value, wrong type) do not.
  if (name && !message.includes(name)) {
    message =
      issue?.code === "invalid_type" && issue.input === undefined
        ? `${name} is required`
        : `${name}: ${message}`;
  }
  throw new AppError("invalid_parameter", message);
}
