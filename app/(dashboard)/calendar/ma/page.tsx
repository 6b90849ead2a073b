import type { Metadata } from "next";
import { HydrationBoundary } from "@tanstack/react-query";
import { createLoader } from "nuqs/server";
import { MaCalendar } from "@/components/calendar/ma-calendar";
import { maParams, filtersFromParams } from "@/components/calendar/calendar-params";
import { PageHeader } from "@/components/shell/page-header";
import { apiQueries } from "@/lib/queries/prefetch-entries";
import { prefetchApi } from "../../_server/prefetch";

const loadMaParams = createLoader(maParams);

export const metadata: Metadata = { title: "M&A calendar" };

export default async function MaCalendarPage({ searchParams }: PageProps<"/calendar/ma">) {
  // The page of rows the URL asks for, read with the calendar's own parsers, so it is the browser's first query.
  const { filters, watchlist } = filtersFromParams(loadMaParams(await searchParams));
  // A watchlist's rows are per user and come from another endpoint: the browser asks for them, and prefetching
  // every company's rows would be work thrown away.
  const state = watchlist ? undefined : await prefetchApi([apiQueries.ma(filters)]);
  return (
    <>
      <PageHeader
        title="M&A calendar"
        description="Announced, pending and completed mergers and acquisitions."
      />
      {/* No Suspense boundary around the URL-driven view, though it reads the URL: see app/(dashboard)/calls/page.tsx. */}
      <HydrationBoundary state={state}>
        <MaCalendar />
      </HydrationBoundary>
    </>
  );
}
