import { HydrationBoundary } from "@tanstack/react-query";
import { easternDate } from "@/common/time/eastern";
import { Overview } from "@/components/overview/overview";
import { PageHeader } from "@/components/shell/page-header";
import { HydrateLater } from "@/components/ui/hydrate-later";
import { callWindow } from "@/lib/call-match";
import { overviewFilters } from "@/lib/queries/overview";
import { apiQueries } from "@/lib/queries/prefetch-entries";
import { fetchCallsInWindow, reportCallQueries } from "@/lib/queries/report-calls";
import type { EarningsRow } from "@/lib/schemas/calendar";
import type { CallListResponse } from "@/lib/schemas/calls";
import { serverPrefetcher } from "./_server/prefetch";

export default async function OverviewPage() {
  // Rows in the first HTML: no skeleton-to-table jump (the M&A panel moved when the panels above filled in).
  const today = easternDate(new Date());
  const filters = overviewFilters(today);
  const prefetcher = await serverPrefetcher();
  const [todayAnswer] = (await prefetcher.fetch([
    apiQueries.earnings(filters.today),
    apiQueries.earnings(filters.week),
    apiQueries.ma(filters.ma),
    apiQueries.liveBoard(),
    // Whom the user follows: "My companies" renders in the first HTML (its empty state was the page's LCP, 3 s late).
    apiQueries.watchlists(),
  ])) as [{ data: EarningsRow[] } | undefined, ...unknown[]];
  // Today's reports' calls (the links into them, "starting soon"), looked up as the page's own hook does: otherwise
  // they arrive after hydration and re-render the whole view in one task (docs/performance.md).
  const window = callWindow(todayAnswer?.data ?? [], today);
  if (window)
    await prefetcher.compose(reportCallQueries.window(window.from, window.to).queryKey, (get) =>
      fetchCallsInWindow(window.from, window.to, (url) => get(url) as Promise<CallListResponse>),
    );
  return (
    <>
      <PageHeader
        title="Overview"
        description="What is live, your companies’ reports, then the wider calendar: today, the week, recent deals."
      />
      <HydrationBoundary state={prefetcher.state()}>
        <HydrateLater>
          <Overview />
        </HydrateLater>
      </HydrationBoundary>
    </>
  );
}
