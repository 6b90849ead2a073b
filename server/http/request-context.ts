import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { processRecord } from "../process-slot";

/**
 * The request a log line belongs to. proxy.ts gives every request an id (`x-request-id`, set there only) and logs
 * it on its access line; route handlers wrapped in `withRequestContext` run inside an async context holding that
 * id, and the logger (server/log.ts) stamps it on every line written meanwhile — the route's own, the upstream
 * client's, the cache's — so one id finds everything a request caused. A coalesced upstream call carries the id of
 * the request that started it.
 */

export interface RequestContext {
  reqId: string;
}

/** In the process slot: each route bundle may hold its own copy of this module, and the logger must see them all. */
function storage(): AsyncLocalStorage<RequestContext> {
  const record = processRecord();
  record.requestContext ??= new AsyncLocalStorage<RequestContext>();
  return record.requestContext as AsyncLocalStorage<RequestContext>;
}

export function currentRequestContext(): RequestContext | undefined {
  return storage().getStore();
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export function withRequestContext<A extends [Request, ...unknown[]], R>(
  handler: (...args: A) => R,
): (...args: A) => R {
  return (...args: A) => {
    const reqId = args[0].headers.get("x-request-id");
    if (!reqId || !REQUEST_ID.test(reqId)) return handler(...args);
    return storage().run({ reqId }, () => handler(...args));
  };
}
