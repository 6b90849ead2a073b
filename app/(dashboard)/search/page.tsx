import type { Metadata } from "next";
import { HydrationBoundary } from "@tanstack/react-query";
import { createLoader } from "nuqs/server";
import { PageHeader } from "@/components/shell/page-header";
import { SearchView } from "@/components/search/search-view";
import { HydrateLater } from "@/components/ui/hydrate-later";
import { searchFilters, searchParams as searchUrlParams } from "@/components/search/search-params";
import { apiQueries } from "@/lib/queries/prefetch-entries";
import { prefetchApi } from "../_server/prefetch";

export const metadata: Metadata = { title: "Search transcripts" };

const loadSearchParams = createLoader(searchUrlParams);

export default async function SearchPage({ searchParams }: PageProps<"/search">) {
  // The URL's search, read with the view's own parsers, answered on the server: the first hits are in the HTML (they
  // are the page's largest paint) instead of waiting for hydration and an /api round trip (docs/performance.md).
  const filters = searchFilters(loadSearchParams(await searchParams));
  const state = filters.q ? await prefetchApi([apiQueries.search(filters)]) : undefined;
  return (
    <>
      <PageHeader
        title="Search transcripts"
        description="Every archived call, live ones included: find what was said, by whom, and jump to that moment."
      />
      {/* No Suspense boundary: dashboard pages render per request, so the URL-driven view paints with the header. */}
      <HydrationBoundary state={state}>
        <HydrateLater>
          <SearchView />
        </HydrateLater>
      </HydrationBoundary>
    </>
  );
}
