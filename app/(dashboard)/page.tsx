import { HydrationBoundary } from "@tanstack/react-query";
import { Overview } from "@/components/overview/overview";
import { PageHeader } from "@/components/shell/page-header";
import { overviewFilters } from "@/lib/queries/overview";
import { apiQueries } from "@/lib/queries/prefetch-entries";
import { prefetchApi } from "./_server/prefetch";

export default async function OverviewPage() {
  // Rows in the first HTML: no skeleton-to-table jump (the M&A panel moved when the panels above filled in).
  const filters = overviewFilters();
  const state = await prefetchApi([
    apiQueries.earnings(filters.today),
    apiQueries.earnings(filters.week),
    apiQueries.ma(filters.ma),
    apiQueries.liveBoard(),
    // Whom the user follows: "My companies" renders in the first HTML (its empty state was the page's LCP, 3 s late).
    apiQueries.watchlists(),
  ]);
  return (
    <>
      <PageHeader
        title="Overview"
        description="What is live, your companies’ reports, then the wider calendar: today, the week, recent deals."
      />
      <HydrationBoundary state={state}>
        <Overview />
      </HydrationBoundary>
    </>
  );
}
