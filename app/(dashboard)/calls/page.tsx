import type { Metadata } from "next";
import { HydrationBoundary, QueryClient, dehydrate } from "@tanstack/react-query";
import { headers } from "next/headers";
import { createLoader } from "nuqs/server";
import { GET as getWatchlists } from "@/app/api/watchlists/route";
import { CallsBrowser } from "@/components/calls/calls-browser";
import {
  FOLLOWED_CALLS_LIMIT,
  callListFilters,
  callsParams,
  followedSectionFilters,
  followedSummaryFilters,
  followedTickerChunks,
  mergeCallPages,
  parseTickerInput,
  showsFollowedSection,
  summaryFilters,
  summarySpan,
} from "@/components/calls/calls-params";
import { PageHeader } from "@/components/shell/page-header";
import type { CallListResponse } from "@/lib/schemas/calls";
import type { Watchlist } from "@/lib/schemas/watchlists";
import { apiQueries } from "@/lib/queries/prefetch-entries";
import { watchlistQueries } from "@/lib/queries/watchlists";
import { PREFETCH_BUDGET_MS, serverPrefetcher } from "../_server/prefetch";

const loadCallsParams = createLoader(callsParams);

export const metadata: Metadata = { title: "Calls" };

/**
 * The reader's watchlists, read in process through the route the browser would ask (as the user the proxy named), so
 * the "Your companies" section is in the first HTML instead of pushing the list down when it arrives. Left out
 * (the browser asks) when the workspace is slow or failing.
 */
async function loadWatchlists(): Promise<{ data: Watchlist[] } | undefined> {
  const user = (await headers()).get("x-callroom-user");
  const request = new Request("http://callroom.internal/api/watchlists", {
    headers: user ? { "x-callroom-user": user } : {},
    signal: AbortSignal.timeout(PREFETCH_BUDGET_MS),
  });
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), PREFETCH_BUDGET_MS);
  });
  try {
    const response = await Promise.race([getWatchlists(request), late]);
    return response?.ok ? ((await response.json()) as { data: Watchlist[] }) : undefined;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

export default async function CallsPage({ searchParams }: PageProps<"/calls">) {
  const params = loadCallsParams(await searchParams);
  const filters = callListFilters(params);
  const prefetcher = await serverPrefetcher();
  const watchlists = await loadWatchlists();
  const followed = new Set(watchlists?.data.flatMap((l) => l.tickers) ?? []);
  const chunks = showsFollowedSection(filters, followed)
    ? followedTickerChunks(followed, filters.tickers).chunks
    : [];
  // The summaries requests cover the listed calls' span, so they can only follow the lists.
  const [list, ...mine] = (await prefetcher.fetch([
    apiQueries.calls(filters),
    ...chunks.map((chunk) => apiQueries.calls(followedSectionFilters(filters, chunk))),
  ])) as (CallListResponse | undefined)[];
  const span = list ? summarySpan(list.data) : null;
  const mineSpan = summarySpan(
    mergeCallPages(
      mine.map((page) => page?.data ?? []),
      FOLLOWED_CALLS_LIMIT,
    ),
  );
  const tickers = followedTickerChunks(followed, filters.tickers).tickers;
  await prefetcher.fetch([
    ...(span ? [apiQueries.summaries(summaryFilters(parseTickerInput(params.tickers), span))] : []),
    ...(mineSpan ? [apiQueries.summaries(followedSummaryFilters(tickers, mineSpan))] : []),
  ]);
  const workspace = new QueryClient();
  if (watchlists) workspace.setQueryData(watchlistQueries.list().queryKey, watchlists);
  return (
    <>
      <PageHeader
        title="Calls"
        description="Earnings conference calls: live ones first, then the most recent, with their summaries."
      />
      {/*
       * No Suspense boundary around the URL-driven view: every dashboard page renders per request (the layout
       * awaits connection()), so useSearchParams has the URL on the server and needs none. A boundary here made
       * React stream this, the page's main content, as a separate chunk that it reveals at least 300 ms after the
       * first paint (and lays out a second time), instead of painting it with the header.
       */}
      <HydrationBoundary state={dehydrate(workspace)}>
        <HydrationBoundary state={prefetcher.state()}>
          <CallsBrowser />
        </HydrationBoundary>
      </HydrationBoundary>
    </>
  );
}
