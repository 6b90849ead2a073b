import { z } from "zod";

/**
 * Every error our `/api/*` answers: `{ "error": { "code": "snake_case", "message": "human sentence" } }`, with the
 * status the catalog below gives its code. One code, one status, one meaning: the server can only raise a code of
 * this catalog (server/errors.ts), so a client may act on the code alone. A 5xx body never carries upstream details;
 * `details` only ever appears on 4xx answers. README's "Errors" lists the catalog.
 */
export const apiErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.unknown().optional(),
  }),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

export const ERROR_CATALOG = {
  invalid_parameter: {
    status: 400,
    meaning: "A path, query or body value breaks its rule; the message names it.",
  },
  unauthenticated: { status: 401, meaning: "No valid session: sign in." },
  invalid_credentials: { status: 401, meaning: "Wrong user name or password." },
  cross_origin: { status: 403, meaning: "A change asked for by another site's page." },
  loopback_only: { status: 403, meaning: "No accounts exist, so this server only answers its own machine." },
  not_found: { status: 404, meaning: "Nothing with this id or path." },
  method_not_allowed: { status: 405, meaning: "This path does not answer this method." },
  auth_disabled: { status: 409, meaning: "Sign-in is off on this server: no account is needed." },
  limit_reached: { status: 409, meaning: "The request is valid, but the user's count of this kind is full." },
  endpoint_taken: { status: 409, meaning: "This browser's push subscription belongs to another user." },
  payload_too_large: { status: 413, meaning: "The request body is larger than this path accepts." },
  unsupported_media_type: { status: 415, meaning: "The request body is not in a type this path accepts." },
  invalid_range: { status: 416, meaning: "The Range header is not a satisfiable bytes range." },
  misdirected_request: {
    status: 421,
    meaning: "This server without accounts answers only under its own names.",
  },
  rate_limited: { status: 429, meaning: "Too many requests or sign-ins from this client: wait Retry-After." },
  too_many_streams: { status: 429, meaning: "This client already holds its share of open live streams." },
  search_superseded: { status: 429, meaning: "A newer search of the same user replaced this one." },
  client_closed_request: { status: 499, meaning: "The client went away before the answer." },
  internal_error: { status: 500, meaning: "Something went wrong on our side." },
  upstream_error: { status: 502, meaning: "The market-data service failed or answered unreadably." },
  upstream_media_error: { status: 502, meaning: "The market-data service's audio could not be read." },
  upstream_auth: { status: 502, meaning: "The market-data service refused our key." },
  upstream_plan: { status: 502, meaning: "Our market-data plan does not include this data." },
  upstream_unavailable: {
    status: 503,
    meaning: "The market-data service keeps failing; we are not asking it now.",
  },
  upstream_not_configured: { status: 503, meaning: "No market-data service is configured on this server." },
  upstream_rate_limited: {
    status: 503,
    meaning: "The market-data service asked us to slow down: retry shortly.",
  },
  recording_not_ready: {
    status: 503,
    meaning: "The call's recording is still being prepared: retry shortly.",
  },
  archive_unavailable: { status: 503, meaning: "The transcript archive cannot be read right now." },
  auth_misconfigured: {
    status: 503,
    meaning: "Accounts exist but sign-in is not configured (session secret).",
  },
  upstream_timeout: { status: 504, meaning: "The market-data service did not answer in time." },
} as const satisfies Record<string, { status: number; meaning: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;
