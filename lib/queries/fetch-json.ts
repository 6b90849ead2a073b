import type { z } from "zod";
import { apiErrorSchema } from "@/lib/schemas/errors";

/** An error answer of our API (or a network failure, status 0), with the message meant for people. */
export class ApiRequestError extends Error {
  override readonly name = "ApiRequestError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function isApiError(error: unknown): error is ApiRequestError {
  return error instanceof ApiRequestError;
}

export type QueryValue = string | number | boolean | readonly string[] | null | undefined;

/** Builds `/api/...?a=1&b=x,y`, leaving out empty values so URLs (and cache keys) stay canonical. */
export function apiUrl(path: string, query: Record<string, QueryValue> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === null || value === undefined || value === "") continue;
    if (Array.isArray(value)) {
      if (value.length > 0) params.set(key, value.join(","));
    } else {
      params.set(key, String(value));
    }
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/**
 * GETs one of our endpoints and validates the body: our server is trusted, but a shape drift should fail loudly
 * at the boundary, not as `undefined` deep inside a table.
 */
export async function fetchJson<S extends z.ZodType>(
  url: string,
  schema: S,
  signal?: AbortSignal,
): Promise<z.infer<S>> {
  let response: Response;
  try {
    response = await fetch(url, { signal, headers: { accept: "application/json" } });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiRequestError(
      0,
      "network_error",
      "Could not reach the Callroom server. Check your connection.",
    );
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const parsed = apiErrorSchema.safeParse(body);
    throw new ApiRequestError(
      response.status,
      parsed.success ? parsed.data.error.code : "http_error",
      parsed.success ? parsed.data.error.message : `The server answered ${response.status}.`,
    );
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ApiRequestError(
      response.status,
      "invalid_response",
      "The server sent data in an unexpected shape.",
    );
  }
  return parsed.data;
}
