import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { CompanyView } from "@/components/company/company-view";
import { AppError } from "@/server/http/errors";
import { getFundamentals } from "@/server/upstream/fundamentals";

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
    const { value } = await getFundamentals("company", { symbols: [symbol] });
    const company = value[0]?.company;
    if (!company) return null;
    return { symbol, name: company.standardName ?? symbol, exchange: company.primaryExchange };
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return null;
    return { symbol, name: symbol, exchange: null };
  }
});

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
  return <CompanyView symbol={company.symbol} name={company.name} exchange={company.exchange} />;
}
