import type { Metadata } from "next";
import { HydrationBoundary } from "@tanstack/react-query";
import { createLoader } from "nuqs/server";
import { CallsBrowser } from "@/components/calls/calls-browser";
import {
  callListFilters,
  callsParams,
  parseTickerInput,
  summaryFilters,
  summarySpan,
} from "@/components/calls/calls-params";
import { PageHeader } from "@/components/shell/page-header";
import type { CallListResponse } from "@/lib/schemas/calls";
import { apiQueries } from "@/lib/queries/prefetch-entries";
import { serverPrefetcher } from "../_server/prefetch";

const loadCallsParams = createLoader(callsParams);

export const metadata: Metadata = { title: "Calls" };

export default async function CallsPage({ searchParams }: PageProps<"/calls">) {
  const params = loadCallsParams(await searchParams);
  const prefetcher = await serverPrefetcher();
  // The summaries request covers the listed calls' span, so it can only follow the list.
  const [list] = (await prefetcher.fetch([apiQueries.calls(callListFilters(params))])) as [
    CallListResponse | undefined,
  ];
  const span = list ? summarySpan(list.data) : null;
  if (span)
    await prefetcher.fetch([apiQueries.summaries(summaryFilters(parseTickerInput(params.tickers), span))]);
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
      <HydrationBoundary state={prefetcher.state()}>
        <CallsBrowser />
      </HydrationBoundary>
    </>
  );
}
