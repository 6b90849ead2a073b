import "server-only";
import type { z } from "zod";
import { LOCAL_USER } from "../auth/session";
import { AppError, toErrorResponse } from "../errors";
import { readJsonBody } from "../http/body";
import { parseParams, parseQuery } from "../http/parse-query";
import { withRequestId } from "../log";
import { assertSameOrigin } from "../security/same-origin";
import type { MarketRouteName } from "../upstream/market-routes";
import { getRuntime, type Runtime } from "./index";

/**
 * The one wrapper of every `/api` route handler: what a route declares (its path parameters, query and body schemas,
 * whether it changes something, whether it acts for a user) is checked here, in this order, before the handler runs:
 *
 * 1. the request's id is stamped on every log line the handler causes (server/log.ts);
 * 2. `user`: the signed-in user, whom proxy.ts passed on in `x-callroom-user` (it drops a client-sent one), or
 *    `local` while sign-in does not apply; 401 `unauthenticated` otherwise;
 * 3. `params`, then `query` (zod; 400 `invalid_parameter` naming the parameter, server/http/parse-query.ts);
 * 4. `body` or `mutation`: same-origin only (403 `cross_origin`, server/security/same-origin.ts), then the body as
 *    JSON (415, 413, 400) against its schema.
 *
 * Whatever the handler throws becomes our error body (server/errors.ts); an answer without a `Cache-Control` of its
 * own goes out `no-store`, so nothing is cached that a route did not declare cacheable (server/http/respond.ts).
 */

export interface RouteSpec {
  params?: z.ZodType;
  query?: z.ZodType;
  /** A JSON body; the request must come from our own pages. */
  body?: z.ZodType;
  /** A change without a body (a DELETE, a POST that takes none): it too must come from our own pages. */
  mutation?: boolean;
  user?: boolean;
  maxBodyBytes?: number;
}

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;

export interface RouteContext<S extends RouteSpec> {
  request: Request;
  runtime: Runtime;
  signal: AbortSignal;
  params: Out<S["params"]>;
  query: Out<S["query"]>;
  body: Out<S["body"]>;
  user: S["user"] extends true ? string : undefined;
}

/** What Next hands a route handler besides the request. */
export interface NextRouteContext {
  params: Promise<Record<string, string | string[] | undefined>>;
}

export type RouteHandler = (request: Request, context?: NextRouteContext) => Promise<Response>;

export function route<const S extends RouteSpec>(
  spec: S,
  handler: (context: RouteContext<S>) => Response | Promise<Response>,
): RouteHandler {
  return (request, next) =>
    withRequestId(request.headers.get("x-request-id"), async () => {
      try {
        const runtime = getRuntime();
        const user = spec.user ? requestUser(request, runtime) : undefined;
        const params = spec.params ? parseParams(await next?.params, spec.params) : undefined;
        const query = spec.query ? parseQuery(new URL(request.url).searchParams, spec.query) : undefined;
        if (spec.body || spec.mutation) assertSameOrigin(request, runtime.config.security.trustProxyHops);
        const body = spec.body
          ? parseParams(await readJsonBody(request, spec.maxBodyBytes), spec.body)
          : undefined;
        const response = await handler({
          request,
          runtime,
          signal: request.signal,
          params,
          query,
          body,
          user,
        } as RouteContext<S>);
        return withDefaultCaching(response);
      } catch (error) {
        return toErrorResponse(error);
      }
    });
}

/** The request's user (see `user` above), for a route whose user depends on how it was called. */
export function requestUser(request: Request, runtime: Runtime): string {
  const user = request.headers.get("x-callroom-user");
  if (user) return user;
  if (!runtime.auth.state().enabled) return LOCAL_USER;
  throw new AppError("unauthenticated", "Sign in to use Callroom.");
}

function withDefaultCaching(response: Response): Response {
  if (response.headers.has("cache-control")) return response;
  try {
    response.headers.set("Cache-Control", "no-store");
    return response;
  } catch {
    // Immutable headers (a redirect made by Response.redirect): copy them.
    const headers = new Headers(response.headers);
    headers.set("Cache-Control", "no-store");
    return new Response(response.body, { status: response.status, headers });
  }
}

/**
 * The Next route of a market-data path: the same answer the custom server's router gives
 * (server/upstream/market-routes.ts), for `next dev` and for Next started without the custom server.
 */
export function marketRoute(name: MarketRouteName): RouteHandler {
  return route({}, ({ runtime, request, signal }) =>
    runtime.market[name].answer(new URL(request.url), signal),
  );
}
