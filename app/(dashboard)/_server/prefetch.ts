import "server-only";
import { QueryClient, dehydrate, type DehydratedState, type QueryKey } from "@tanstack/react-query";
import { headers } from "next/headers";
import { GET as getAlertRules } from "@/app/api/alert-rules/route";
import { GET as getMutes } from "@/app/api/alerts/mutes/route";
import { GET as getEarnings } from "@/app/api/calendar/earnings/route";
import { GET as getMa } from "@/app/api/calendar/ma/route";
import { GET as getCall } from "@/app/api/calls/[callId]/route";
import { GET as getCalls } from "@/app/api/calls/route";
import { GET as getFundamentals } from "@/app/api/fundamentals/[kind]/route";
import { GET as getSearch } from "@/app/api/search/route";
import { GET as getSummaries } from "@/app/api/summaries/route";
import { GET as getWatchlists } from "@/app/api/watchlists/route";

/*
 * Server-side prefetching for pages whose main content is a query: the rows are in the first HTML, so LCP need not
 * wait for hydration plus an /api round trip, and nothing moves when they arrive.
 *
 * Decision: a prefetch runs the very `/api` route handler the browser would reach, in process, with the URL the
 * client query builds (lib/queries/*Url) and caches its JSON body under the client query's key. So the cache holds
 * byte for byte what `/api` answers for that query (the same envelope, `meta.stale`/`fetchedAt`, paging), parsed
 * by the route's own schema, with no second copy of any route's logic that could drift. A prefetch that fails, is
 * refused or takes longer than PREFETCH_BUDGET_MS is left out: the page renders at once and the browser fetches
 * (and retries, and shows its error state) exactly as before.
 */

/** How long the HTML may wait for one prefetch before the page renders without it. */
export const PREFETCH_BUDGET_MS = 1_500;

import type { ApiQuery } from "@/lib/queries/prefetch-entries";

type Handler = (request: Request, match: RegExpExecArray) => Promise<Response>;

const segment = (match: RegExpExecArray) => decodeURIComponent(match[1] ?? "");

const ROUTES: readonly (readonly [RegExp, Handler])[] = [
  [/^\/api\/calendar\/earnings$/, (request) => getEarnings(request)],
  [/^\/api\/calendar\/ma$/, (request) => getMa(request)],
  [/^\/api\/calls$/, (request) => getCalls(request)],
  [/^\/api\/summaries$/, (request) => getSummaries(request)],
  [/^\/api\/watchlists$/, (request) => getWatchlists(request)],
  [/^\/api\/search$/, (request) => getSearch(request)],
  [/^\/api\/alerts\/mutes$/, (request) => getMutes(request)],
  [/^\/api\/alert-rules$/, (request) => getAlertRules(request)],
  [
    /^\/api\/calls\/([^/]+)$/,
    (request, m) => getCall(request, { params: Promise.resolve({ callId: segment(m) }) }),
  ],
  [
    /^\/api\/fundamentals\/([^/]+)$/,
    (request, m) => getFundamentals(request, { params: Promise.resolve({ kind: segment(m) }) }),
  ],
];

/** What a prefetch's request carries of the page's own: its id for the logs, its user (set by proxy.ts's gate). */
interface PageRequest {
  requestId: string | null;
  user: string | null;
}

async function load(url: string, page: PageRequest, budgetMs: number): Promise<unknown> {
  const target = new URL(url, "http://callroom.internal");
  for (const [pattern, handle] of ROUTES) {
    const match = pattern.exec(target.pathname);
    if (!match) continue;
    const headers: Record<string, string> = { accept: "application/json" };
    if (page.requestId) headers["x-request-id"] = page.requestId;
    // The user's own answers (their watchlists) as the route would give them to the browser: the same user the
    // gate put on the page's request, never one the page chose.
    if (page.user) headers["x-callroom-user"] = page.user;
    const request = new Request(target, {
      headers,
      // The routes pass their request's signal to the upstream: past the budget, the upstream call is abandoned.
      signal: AbortSignal.timeout(budgetMs),
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`prefetch of ${target.pathname} over budget`)), budgetMs);
    });
    try {
      const response = await Promise.race([handle(request, match), late]);
      if (!response.ok) throw new Error(`prefetch of ${target.pathname} answered ${response.status}`);
      return await response.json();
    } finally {
      clearTimeout(timer);
    }
  }
  throw new Error(`no route handler for ${target.pathname}`);
}

/**
 * A request's prefetches: `fetch` runs some in parallel and returns their answers (undefined where one failed), so
 * a page can choose what to prefetch next from what it got; `state` is what `<HydrationBoundary>` needs (the
 * successful answers only).
 */
export async function serverPrefetcher({ budgetMs = PREFETCH_BUDGET_MS }: { budgetMs?: number } = {}) {
  const incoming = await headers();
  const page: PageRequest = {
    requestId: incoming.get("x-request-id"),
    user: incoming.get("x-callroom-user"),
  };
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Infinity } } });
  return {
    async fetch(entries: readonly ApiQuery[]): Promise<unknown[]> {
      await Promise.all(
        entries.map(({ queryKey, url }) =>
          client.prefetchQuery({ queryKey, queryFn: () => load(url, page, budgetMs) }),
        ),
      );
      return entries.map(({ queryKey }) => client.getQueryData(queryKey));
    },
    /**
     * A query whose answer the client assembles from several `/api` answers (e.g. every page of a list): `build` is
     * the client's own assembly, given a `get` that answers each URL from its route here. Returns the answer, or
     * undefined when a request failed (the browser then asks, as without a prefetch).
     */
    async compose<T>(queryKey: QueryKey, build: (get: (url: string) => Promise<unknown>) => Promise<T>) {
      await client.prefetchQuery({ queryKey, queryFn: () => build((url) => load(url, page, budgetMs)) });
      return client.getQueryData<T>(queryKey);
    },
    state: (): DehydratedState => dehydrate(client),
  };
}

/** Prefetches these queries (in parallel) and returns the state for `<HydrationBoundary>`. */
export async function prefetchApi(entries: readonly ApiQuery[]): Promise<DehydratedState> {
  const prefetcher = await serverPrefetcher();
  await prefetcher.fetch(entries);
  return prefetcher.state();
}
