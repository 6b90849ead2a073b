import type { Metadata } from "next";
import { HydrationBoundary } from "@tanstack/react-query";
import { createLoader } from "nuqs/server";
import { EarningsCalendar } from "@/components/calendar/earnings-calendar";
import { earningsParams, filtersFromParams } from "@/components/calendar/calendar-params";
import { PageHeader } from "@/components/shell/page-header";
import { apiQueries } from "@/lib/queries/prefetch-entries";
import { prefetchApi } from "../../_server/prefetch";

const loadEarningsParams = createLoader(earningsParams);

export const metadata: Metadata = { title: "Earnings calendar" };

export default async function EarningsCalendarPage({ searchParams }: PageProps<"/calendar/earnings">) {
  // The page of rows the URL asks for, read with the calendar's own parsers, so it is the browser's first query.
  const { filters, watchlist } = filtersFromParams(loadEarningsParams(await searchParams));
  // A watchlist's rows are per user and come from another endpoint: the browser asks for them, and prefetching
  // every company's rows would be work thrown away.
  const state = watchlist ? undefined : await prefetchApi([apiQueries.earnings(filters)]);
  return (
    <>
      <PageHeader
        title="Earnings calendar"
        description="Scheduled and reported quarterly results, with estimates and surprises."
      />
      {/* No Suspense boundary around the URL-driven view, though it reads the URL: see app/(dashboard)/calls/page.tsx. */}
      <HydrationBoundary state={state}>
        <EarningsCalendar />
      </HydrationBoundary>
    </>
  );
}
