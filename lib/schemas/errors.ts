import { z } from "zod";

/**
 * Every error our `/api/*` answers: `{ "error": { "code": "snake_case", "message": "human sentence" } }`.
 * Status 400 for bad input (`invalid_parameter`), 404 for nothing found (`not_found`), 502/503/504 for upstream
 * trouble (`upstream_error`, `upstream_unavailable`, `upstream_timeout`, `upstream_not_configured`,
 * `upstream_auth`, `upstream_plan`, `rate_limited`). A 5xx body never carries upstream details; `details` only
 * ever appears on 4xx answers.
 */
export const apiErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.unknown().optional(),
  }),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

export const ERROR_CODES = {
  invalidParameter: "invalid_parameter",
  notFound: "not_found",
  internal: "internal_error",
  upstreamError: "upstream_error",
  upstreamAuth: "upstream_auth",
  upstreamPlan: "upstream_plan",
  upstreamUnavailable: "upstream_unavailable",
  upstreamTimeout: "upstream_timeout",
  upstreamNotConfigured: "upstream_not_configured",
  rateLimited: "rate_limited",
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];
