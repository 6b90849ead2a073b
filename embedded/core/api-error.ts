/**
 * Errors a handler throws; the server renders them as the upstream's envelope
 * `{"ok": false, "errors": [{code, id, value}]}` (docs/upstream.md §1).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly id: string,
    readonly value: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(value);
  }
}

/** 400 naming the parameter and the rule, e.g. `badParameter("pagesize must be between 1 and 1000")`. */
export const badParameter = (message: string) =>
  new ApiError(400, "bad_request", "invalid_parameter", message);

export const noDataFound = () =>
  new ApiError(404, "no_data_found", "not_found", "No data found for the specified parameters");

export const unauthorized = () =>
  new ApiError(401, "auth_failed", "unauthorized", "Invalid or missing authentication token");

export const forbidden = () => new ApiError(403, "forbidden", "forbidden", "Forbidden");

export const tooManyRequests = (retryAfterSeconds: number) =>
  new ApiError(429, "rate_limited", "too_many_requests", "Too many requests", {
    "Retry-After": String(retryAfterSeconds),
  });

export const serverError = () =>
  new ApiError(
    500,
    "internal_server_error",
    "server_error",
    "An unexpected error occurred while processing the request",
  );

export const serviceUnavailable = () =>
  new ApiError(503, "service_unavailable", "service_unavailable", "Service unavailable");
