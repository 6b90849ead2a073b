import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { CompanyView } from "@/components/company/company-view";
import { companyFilters } from "@/lib/queries/company";
import { apiQueries } from "@/lib/queries/prefetch-entries";
import { AppError } from "@/server/errors";
import { getFundamentals } from "@/server/upstream/fundamentals";
import { prefetchApi } from "../../_server/prefetch";
import { getRuntime } from "@/server/runtime";

const SYMBOL = /^[A-Z0-9][A-Z0-9.\-]{0,14}$/;

interface CompanyIdentity {
  symbol: string;
  name: string;
  exchange: string | null;
}

/**
 * Checks the company before anything streams, so an unknown ticker answers a real HTTP 404 (not a 200 page
 * saying "not found"). Upstream trouble is not a 404: the page renders and each panel shows its own error.
 * cache() shares one lookup between generateMetadata and the page.
 */
const lookupCompany = cache(async (raw: string): Promise<CompanyIdentity | null> => {
  const symbol = decodeURIComponent(raw).trim().toUpperCase();
  if (!SYMBOL.test(symbol)) return null;
  try {
    const { value } = await getFundamentals(getRuntime().upstream, "company", { symbols: [symbol] });
    const company = value[0]?.company;
    if (!company) return importedOnly(symbol);
    return { symbol, name: company.standardName ?? symbol, exchange: company.primaryExchange };
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return importedOnly(symbol);
    return { symbol, name: symbol, exchange: null };
  }
});

/**
 * A company the market-data service does not know, whose transcripts were imported (`npm run import`): its page
 * lists them, and the market-data panels say they have nothing.
 */
async function importedOnly(symbol: string): Promise<CompanyIdentity | null> {
  const imported = await getRuntime()
    .archive.listImported({ tickers: [symbol], page: 0, pageSize: 1 })
    .catch(() => null);
  return imported && imported.total > 0 ? { symbol, name: symbol, exchange: null } : null;
}

export async function generateMetadata({
  params,
}: {
  params: Promise<{ symbol: string }>;
}): Promise<Metadata> {
  const company = await lookupCompany((await params).symbol);
  return { title: company ? `${company.name} (${company.symbol})` : "Company not found" };
}

export default async function CompanyPage({ params }: { params: Promise<{ symbol: string }> }) {
  const company = await lookupCompany((await params).symbol);
  if (!company) notFound();
  const { symbol } = company;
  // The first screen's panels come with the HTML (the valuation table is the LCP element); the rest load after.
  const state = await prefetchApi([
    apiQueries.fundamentals("all", [symbol]),
    apiQueries.fundamentals("share-class-profile", [symbol]),
    apiQueries.fundamentals("valuation-ratios", [symbol]),
    apiQueries.earnings(companyFilters.earnings(symbol)),
    apiQueries.calls(companyFilters.calls(symbol)),
  ]);
  return (
    <HydrationBoundary state={state}>
      <CompanyView symbol={symbol} name={company.name} exchange={company.exchange} />
    </HydrationBoundary>
  );
}
