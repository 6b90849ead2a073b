import type { Metadata } from "next";
import { PageHeader } from "@/components/shell/page-header";
import { WatchlistsView } from "@/components/watchlists/watchlists-view";

export const metadata: Metadata = { title: "Watchlists" };

export default function WatchlistsPage() {
  return (
    <>
      <PageHeader
        title="Watchlists"
        description="The companies you follow: their reports and deals, their calls first, and the alerts you set on them."
      />
      <WatchlistsView />
    </>
  );
}
