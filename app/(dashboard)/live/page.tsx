import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { LiveBoard } from "@/components/calls/live-board";
import { PageHeader } from "@/components/shell/page-header";
import { boardOrder } from "@/lib/queries/live";
import { apiQueries } from "@/lib/queries/prefetch-entries";
import type { CallListResponse } from "@/lib/schemas/calls";
import { serverPrefetcher } from "../_server/prefetch";

export const metadata: Metadata = { title: "Live calls" };

/**
 * Tiles whose transcripts come with the HTML: those on the first screens. The rest load in the browser, as all of
 * them did before; each tile holds its height either way.
 */
const PREFETCHED_TILES = 6;

export default async function LivePage() {
  const prefetcher = await serverPrefetcher();
  const [board] = (await prefetcher.fetch([apiQueries.liveBoard()])) as [CallListResponse | undefined];
  if (board) {
    const first = boardOrder(board.data).slice(0, PREFETCHED_TILES);
    await prefetcher.fetch(first.map((call) => apiQueries.call(call.callId)));
  }
  return (
    <>
      <PageHeader
        title="Live calls"
        description="Every earnings call in progress, updating as it is spoken."
      />
      <HydrationBoundary state={prefetcher.state()}>
        <LiveBoard />
      </HydrationBoundary>
    </>
  );
}
