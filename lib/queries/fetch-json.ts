/*
 * Browser-side, on purpose without zod. Decision: the browser trusts the shapes of OUR API. Every `/api/*` route
 * validates what it receives from the market-data service with the full zod schemas of lib/schemas (server-side)
 * and serialises exactly those types, so validating the same bytes again in the browser bought no safety but cost
 * every page ~36 kB gzip of zod and schemas in its first load (docs/performance.md). The types still come from
 * lib/schemas (`import type`, erased at build). What is checked here is what a proxy, a login redirect or a
 * half-deployed server can still get wrong: the status, and that a success is our `{ data, ... }` envelope.
 */
import type { ApiError } from "@/lib/schemas/errors";

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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** `{ error: { code, message } }` of our API, when the body is one. */
function apiErrorOf(body: unknown): ApiError["error"] | null {
  if (!isObject(body) || !isObject(body.error)) return null;
  const { code, message } = body.error;
  return typeof code === "string" && typeof message === "string" ? { code, message } : null;
}

/**
 * GETs one of our endpoints. `T` is the endpoint's type from lib/schemas (see the note at the top: the server
 * validated the data; here only the envelope is checked, so an answer that is not ours fails loudly at the
 * boundary, not as `undefined` deep inside a table).
 */
export async function fetchJson<T extends { data: unknown }>(url: string, signal?: AbortSignal): Promise<T> {
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
    const error = apiErrorOf(body);
    throw new ApiRequestError(
      response.status,
      error ? error.code : "http_error",
      error ? error.message : `The server answered ${response.status}.`,
    );
  }
  if (!isObject(body) || !("data" in body)) {
    throw new ApiRequestError(
      response.status,
      "invalid_response",
      "The server sent data in an unexpected shape.",
    );
  }
  return body as T;
}
