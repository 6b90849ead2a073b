import type { Metadata } from "next";
import { HydrationBoundary } from "@tanstack/react-query";
import { createLoader } from "nuqs/server";
import { Suspense } from "react";
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
      {/* The filters live in the URL (useSearchParams), which needs a Suspense boundary. */}
      <Suspense>
        <HydrationBoundary state={prefetcher.state()}>
          <CallsBrowser />
        </HydrationBoundary>
      </Suspense>
    </>
  );
}
