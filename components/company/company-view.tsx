"use client";

import { CompanyDeals, CompanyEarnings } from "./company-events";
import { CompanyHeader, MarketCapChart, ProfilePanels } from "./company-overview";
import {
  EarningRatiosSection,
  EarningReportsSection,
  OperationRatiosSection,
  ValuationSection,
} from "./company-ratios";
import { BalanceSheetV3Section, FinancialStatementsSection } from "./company-statements";

const SECTIONS = [
  ["market-cap", "Market cap"],
  ["valuation", "Valuation"],
  ["operation-ratios", "Operations"],
  ["earning-reports", "Earnings"],
  ["financials", "Statements"],
  ["earnings", "Dates"],
  ["deals", "M&A"],
  ["profile", "Profile"],
] as const;

/** Every panel loads on its own, so a slow or failing one never blanks the page. */
export function CompanyView({
  symbol,
  name,
  exchange,
}: {
  symbol: string;
  name: string;
  exchange: string | null;
}) {
  return (
    <article aria-label={`${name} (${symbol})`}>
      <CompanyHeader symbol={symbol} name={name} exchange={exchange} />
      <nav aria-label="Sections" className="-mt-2 mb-4 overflow-x-auto">
        <ul className="flex gap-1 text-[13px] whitespace-nowrap">
          {SECTIONS.map(([id, label]) => (
            <li key={id}>
              <a
                href={`#${id}`}
                className="text-muted hover:bg-surface hover:text-fg inline-flex h-7 items-center rounded px-2"
              >
                {label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="flex flex-col gap-8">
        <div className="grid gap-6 lg:grid-cols-2">
          <MarketCapChart symbol={symbol} />
          <CompanyEarnings symbol={symbol} />
        </div>
        <ValuationSection symbol={symbol} />
        <OperationRatiosSection symbol={symbol} />
        <EarningReportsSection symbol={symbol} />
        <EarningRatiosSection symbol={symbol} />
        <FinancialStatementsSection symbol={symbol} />
        <BalanceSheetV3Section symbol={symbol} />
        <CompanyDeals symbol={symbol} />
        <ProfilePanels symbol={symbol} />
      </div>
    </article>
  );
}
