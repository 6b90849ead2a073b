/** Small fetch helpers shared by the embedded service's contract tests. */

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  json: unknown;
  elapsedMs: number;
}

export async function get(url: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  return request("GET", url, headers);
}

export async function request(
  method: string,
  url: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<HttpAnswer> {
  const started = performance.now();
  const response = await fetch(url, {
    method,
    headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    json = undefined;
  }
  return {
    status: response.status,
    headers: response.headers,
    text,
    json,
    elapsedMs: performance.now() - started,
  };
}

export const envelope = (code: string, id: string, value: string) => ({
  ok: false,
  errors: [{ code, id, value }],
});

export const AUTH_FAILED = envelope("auth_failed", "unauthorized", "Invalid or missing authentication token");
export const FORBIDDEN = envelope("forbidden", "forbidden", "Forbidden");
export const NO_DATA = envelope("no_data_found", "not_found", "No data found for the specified parameters");
export const SERVER_ERROR = envelope(
  "internal_server_error",
  "server_error",
  "An unexpected error occurred while processing the request",
);
export const UNAVAILABLE = envelope("service_unavailable", "service_unavailable", "Service unavailable");
export const TOO_MANY = envelope("rate_limited", "too_many_requests", "Too many requests");
export const badRequest = (value: string) => envelope("bad_request", "invalid_parameter", value);
