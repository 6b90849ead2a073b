import type { Metadata } from "next";
import { HydrationBoundary } from "@tanstack/react-query";
import { createLoader } from "nuqs/server";
import { CompareView } from "@/components/company/compare-view";
import { cleanCompareSymbols, compareSymbolsParser, MIN_COMPARE } from "@/components/company/compare-params";
import { PageHeader } from "@/components/shell/page-header";
import { apiQueries } from "@/lib/queries/prefetch-entries";
import { prefetchApi } from "../_server/prefetch";

const loadCompareParams = createLoader({ symbols: compareSymbolsParser });

export const metadata: Metadata = { title: "Compare companies" };

export default async function ComparePage({ searchParams }: PageProps<"/compare">) {
  const symbols = cleanCompareSymbols(loadCompareParams(await searchParams).symbols);
  const state = await prefetchApi(
    symbols.length >= MIN_COMPARE ? [apiQueries.fundamentals("all", symbols)] : [],
  );
  return (
    <>
      <PageHeader
        title="Compare companies"
        description="Two to ten companies side by side; the set lives in the URL."
      />
      {/* No Suspense boundary around the URL-driven view, though it reads the URL: see app/(dashboard)/calls/page.tsx. */}
      <HydrationBoundary state={state}>
        <CompareView />
      </HydrationBoundary>
    </>
  );
}
