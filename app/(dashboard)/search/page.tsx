import type { Metadata } from "next";
import { PageHeader } from "@/components/shell/page-header";
import { SearchView } from "@/components/search/search-view";

export const metadata: Metadata = { title: "Search transcripts" };

export default function SearchPage() {
  return (
    <>
      <PageHeader
        title="Search transcripts"
        description="Every archived call, live ones included: find what was said, by whom, and jump to that moment."
      />
      {/* No Suspense boundary: dashboard pages render per request, so the URL-driven view paints with the header. */}
      <SearchView />
    </>
  );
}
