import "server-only";
import type { z } from "zod";
import type { Logger } from "pino";
import { AppError } from "../errors";
import type { CircuitBreaker } from "../security/circuit-breaker";
import { guardUpstreamCall, type UpstreamCallObserver } from "../security/upstream-guard";
import { currentLane, type Lane, type UpstreamBudget } from "./budget";
import type { ResponseCache } from "./cache";

/**
 * The one way to GET from the market-data service (docs/upstream.md §1). It owns:
 * - auth: `Authorization: token <key>` (never the query form, which would put the key in URLs and logs);
 * - a deadline: UPSTREAM_TIMEOUT_MS for the whole call, retry included, combined with the caller's signal;
 * - one retry on a network error or 500/502/503, drawn from a process-wide retry budget so that an outage does not
 *   double our load on a struggling service;
 * - error mapping to our AppError (docs/upstream.md §1): the caller never sees upstream bodies, and 5xx answers we produce
 *   carry no upstream detail;
 * - validation of 200 bodies with the caller's wire schema.
 *
 * 404 `no_data_found` is not an error: it comes back as `{ status: "no_data" }` (calendars read it as no rows,
 * fundamentals as not found). An unknown path's 404 (`no Route matched`) is our bug and maps to 502.
 */

export type UpstreamQueryValue = string | number | boolean | undefined | null;
export type UpstreamQuery = Record<string, UpstreamQueryValue>;

export type UpstreamResult<T> = { status: "ok"; data: T } | { status: "no_data" };

export interface UpstreamGetOptions {
  signal?: AbortSignal;
}

/* ------------------------------------------------------------------ retry budget */

/** At most `max` retries per rolling `windowMs`: a handful of blips are absorbed, an outage is not amplified. */
class RetryBudget {
  private stamps: number[] = [];
  constructor(
    private max: number,
    private windowMs: number,
  ) {}
  tryAcquire(now = Date.now()): boolean {
    this.stamps = this.stamps.filter((t) => now - t < this.windowMs);
    if (this.stamps.length >= this.max) return false;
    this.stamps.push(now);
    return true;
  }
}

export const DEFAULT_RETRY_BUDGET = { max: 10, windowMs: 10_000 };

const RETRYABLE_STATUSES = new Set([500, 502, 503]);
/** A 5xx asking us to wait longer than this is not retried inline: a user is waiting (stale-if-error covers). */
const MAX_RETRY_DELAY_MS = 1000;
/** The longest Retry-After we pass on to our clients for a 429; beyond it the number is not useful to a browser. */
const MAX_RETRY_AFTER_SECONDS = 60;

/* ------------------------------------------------------------------ stats */

export interface UpstreamClientStats {
  requests: number;
  retries: number;
  noData: number;
  failures: number;
}

/* ------------------------------------------------------------------ errors */

export const upstreamErrors = {
  auth: () =>
    new AppError(
      "upstream_auth",
      "The market-data key was rejected; the server's configuration needs attention.",
    ),
  plan: () => new AppError("upstream_plan", "Our market-data plan does not include this data."),
  rateLimited: (retryAfterSeconds: number) =>
    new AppError("upstream_rate_limited", "The market-data service is busy; please retry shortly.", {
      retryAfterSeconds,
    }),
  timeout: () => new AppError("upstream_timeout", "The market-data service did not answer in time."),
  failed: () => new AppError("upstream_error", "The market-data service failed to answer."),
  unexpected: () => new AppError("upstream_error", "Unexpected response from the market-data service."),
  cancelled: () => new AppError("client_closed_request", "The request was cancelled."),
};

/** What an upstream error body says, whatever its shape: envelope, bare JSON string, `{message}` or `{text}`. */
export function readUpstreamError(bodyText: string): { code?: string; message?: string } {
  let body: unknown = bodyText;
  try {
    body = JSON.parse(bodyText);
  } catch {
    // plain text body: keep it as the message
  }
  if (typeof body === "string") return { message: body };
  if (body && typeof body === "object") {
    const b = body as Record<string, unknown>;
    const first = Array.isArray(b.errors) ? (b.errors[0] as Record<string, unknown> | undefined) : undefined;
    if (first && typeof first === "object") {
      return {
        code: typeof first.code === "string" ? first.code : undefined,
        message: typeof first.value === "string" ? first.value : undefined,
      };
    }
    const message =
      typeof b.message === "string" ? b.message : typeof b.text === "string" ? b.text : undefined;
    const code = typeof b.code === "string" ? b.code : undefined;
    return { code, message };
  }
  return {};
}

function isNoDataFound(bodyText: string): boolean {
  const { code, message } = readUpstreamError(bodyText);
  if (code === "no_data_found") return true;
  return code === undefined && message !== undefined && /no data found/i.test(message);
}

/* ------------------------------------------------------------------ the call */

export function buildUpstreamUrl(baseUrl: string, path: string, query: UpstreamQuery): URL {
  const url = new URL(baseUrl + (path.startsWith("/") ? path : `/${path}`));
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === "") continue;
    url.searchParams.set(name, String(value));
  }
  return url;
}

function parseRetryAfter(header: string | null): number {
  if (!header) return 1;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(seconds)));
  const date = Date.parse(header);
  if (!Number.isNaN(date))
    return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil((date - Date.now()) / 1000)));
  return 1;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

type Attempt<T> =
  { kind: "done"; result: UpstreamResult<T> } | { kind: "retryable"; error: AppError; delayMs: number };

/** The one way to GET from the upstream (the runtime builds one per process; tests build their own). */
export interface UpstreamClient {
  get<S extends z.ZodType>(
    path: string,
    query: UpstreamQuery,
    schema: S,
    options?: UpstreamGetOptions,
  ): Promise<UpstreamResult<z.output<S>>>;
  stats(): UpstreamClientStats;
}

/** What every upstream server function receives: the client and the response cache in front of it. */
export interface Upstream {
  http: UpstreamClient;
  cache: ResponseCache;
  log: Logger;
}

/** Where the market-data service is (server/config.ts `upstream`, once both the URL and the key are set). */
export interface UpstreamConfig {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
}

export interface UpstreamClientDeps {
  /** null when the upstream is not configured: every call then fails with 503 `upstream_not_configured`. */
  config: UpstreamConfig | null;
  breaker: CircuitBreaker;
  log: Logger;
  observe?: UpstreamCallObserver;
  retryBudget?: { max: number; windowMs: number };
  /** Spaces the background lane's requests below the upstream's rate limit (server/upstream/budget.ts). */
  budget?: UpstreamBudget;
  /** Told of every 429 the upstream answers (the metrics count them). */
  onRateLimited?: (lane: Lane) => void;
}

export function upstreamNotConfigured(): AppError {
  return new AppError("upstream_not_configured", "The market-data service is not configured on this server.");
}

/** Every call passes the circuit breaker (server/security/circuit-breaker.ts), which also times it for metrics. */
export function createUpstreamClient(deps: UpstreamClientDeps): UpstreamClient {
  const budget = deps.retryBudget ?? DEFAULT_RETRY_BUDGET;
  const retryBudget = new RetryBudget(budget.max, budget.windowMs);
  const stats: UpstreamClientStats = { requests: 0, retries: 0, noData: 0, failures: 0 };
  const context: GetContext = { deps, retryBudget, stats };
  return {
    get: (path, query, schema, options = {}) =>
      guardUpstreamCall(deps.breaker, deps.observe, () =>
        upstreamGetUnguarded(context, path, query, schema, options),
      ),
    stats: () => ({ ...stats }),
  };
}

interface GetContext {
  deps: UpstreamClientDeps;
  retryBudget: RetryBudget;
  stats: UpstreamClientStats;
}

async function upstreamGetUnguarded<S extends z.ZodType>(
  { deps, retryBudget, stats }: GetContext,
  path: string,
  query: UpstreamQuery,
  schema: S,
  options: UpstreamGetOptions,
): Promise<UpstreamResult<z.output<S>>> {
  const config = deps.config;
  if (!config) throw upstreamNotConfigured();
  const log = deps.log;
  const url = buildUpstreamUrl(config.baseUrl, path, query);
  const lane = currentLane();
  // Before the deadline starts: a background request's wait for its turn is not the upstream's slowness.
  await deps.budget?.admit(lane, options.signal).catch(() => {
    throw upstreamErrors.cancelled();
  });
  const deadline = AbortSignal.timeout(config.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  const startedAt = Date.now();

  const classifyAbort = (): AppError | undefined => {
    if (options.signal?.aborted) return upstreamErrors.cancelled();
    if (deadline.aborted) return upstreamErrors.timeout();
    return undefined;
  };

  const attempt = async (): Promise<Attempt<z.output<S>>> => {
    stats.requests += 1;
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, {
        headers: { Authorization: `token ${config.apiKey}`, Accept: "application/json" },
        signal,
        cache: "no-store",
      });
      text = await response.text();
    } catch (error) {
      const aborted = classifyAbort();
      if (aborted) throw aborted;
      log.warn({ path, err: error }, "upstream network error");
      return { kind: "retryable", error: upstreamErrors.failed(), delayMs: 100 + Math.random() * 200 };
    }
    const status = response.status;
    log.debug({ path, status, ms: Date.now() - startedAt }, "upstream response");

    if (status >= 200 && status < 300) {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        log.error({ path, status, bodyStart: text.slice(0, 200) }, "upstream body is not JSON");
        throw upstreamErrors.unexpected();
      }
      const parsed = schema.safeParse(body);
      if (!parsed.success) {
        log.error(
          {
            path,
            issues: parsed.error.issues
              .slice(0, 5)
              .map((i) => ({ path: i.path.join("."), message: i.message })),
          },
          "upstream body does not match the wire schema",
        );
        throw upstreamErrors.unexpected();
      }
      return { kind: "done", result: { status: "ok", data: parsed.data } };
    }

    const detail = readUpstreamError(text);
    const logDetail = { path, status, code: detail.code, message: detail.message?.slice(0, 200) };
    if (status === 404) {
      if (isNoDataFound(text)) {
        stats.noData += 1;
        return { kind: "done", result: { status: "no_data" } };
      }
      log.error(logDetail, "upstream path not found");
      throw upstreamErrors.failed();
    }
    if (status === 401) {
      log.error(logDetail, "upstream rejected the key");
      throw upstreamErrors.auth();
    }
    if (status === 403) {
      log.error(logDetail, "upstream plan lacks this product");
      throw upstreamErrors.plan();
    }
    if (status === 429) {
      log.warn({ ...logDetail, lane }, "upstream rate limit");
      const retryAfterSeconds = parseRetryAfter(response.headers.get("retry-after"));
      deps.budget?.rateLimited(lane, retryAfterSeconds);
      deps.onRateLimited?.(lane);
      throw upstreamErrors.rateLimited(retryAfterSeconds);
    }
    if (RETRYABLE_STATUSES.has(status)) {
      log.warn(logDetail, "upstream server error");
      const retryAfter = response.headers.get("retry-after");
      const hinted =
        retryAfter && Number.isFinite(Number(retryAfter)) ? Number(retryAfter) * 1000 : undefined;
      return {
        kind: "retryable",
        error: upstreamErrors.failed(),
        delayMs: hinted ?? 100 + Math.random() * 200,
      };
    }
    // 400 means our validation let through something the upstream refuses: our bug, not the user's.
    log.error(logDetail, "upstream refused the request");
    throw upstreamErrors.failed();
  };

  try {
    const first = await attempt();
    if (first.kind === "done") return first.result;
    const remainingMs = config.timeoutMs - (Date.now() - startedAt);
    if (
      first.delayMs > MAX_RETRY_DELAY_MS ||
      first.delayMs >= remainingMs - 50 ||
      !retryBudget.tryAcquire()
    ) {
      stats.failures += 1;
      throw first.error;
    }
    stats.retries += 1;
    await sleep(first.delayMs, signal).catch(() => {
      throw classifyAbort() ?? first.error;
    });
    await deps.budget?.admit(lane, signal).catch(() => {
      throw classifyAbort() ?? first.error;
    });
    const second = await attempt();
    if (second.kind === "done") return second.result;
    stats.failures += 1;
    throw second.error;
  } catch (error) {
    if (error instanceof AppError) throw error;
    log.error({ path, err: error }, "upstream call failed unexpectedly");
    throw upstreamErrors.failed();
  }
}
