import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { PageHeader } from "@/components/shell/page-header";
import { WatchlistsView } from "@/components/watchlists/watchlists-view";
import { apiQueries } from "@/lib/queries/prefetch-entries";
import { prefetchApi } from "../_server/prefetch";

export const metadata: Metadata = { title: "Watchlists" };

export default async function WatchlistsPage() {
  // The lists in the first HTML: the page's main content, which a client fetch painted 3 s late on a phone.
  const state = await prefetchApi([apiQueries.watchlists()]);
  return (
    <>
      <PageHeader
        title="Watchlists"
        description="The companies you follow: their reports and deals, their calls first, and the alerts you set on them."
      />
      <HydrationBoundary state={state}>
        <WatchlistsView />
      </HydrationBoundary>
    </>
  );
}
