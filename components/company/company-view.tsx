"use client";

import { CompanyImportedCalls } from "./company-imported-calls";
import { lazy, Suspense, type ReactNode } from "react";
import { CompanyCalls } from "./company-calls";
import { CompanyDeals, CompanyEarnings } from "./company-events";
import { CompanyHeader, MarketCapChart } from "./company-overview";
import { Skeleton } from "@/components/ui/skeleton";

/*
 * The sections below the first screen (ratios, statements, with their tables of labels) are server-rendered as
 * ever, and their code is fetched once the page is up rather than with its first load (docs/performance.md,
 * First-load JS).
 */
const ratios = () => import("./company-ratios");
const statements = () => import("./company-statements");
const ValuationSection = lazy(() => ratios().then((m) => ({ default: m.ValuationSection })));
const OperationRatiosSection = lazy(() => ratios().then((m) => ({ default: m.OperationRatiosSection })));
const EarningReportsSection = lazy(() => ratios().then((m) => ({ default: m.EarningReportsSection })));
const EarningRatiosSection = lazy(() => ratios().then((m) => ({ default: m.EarningRatiosSection })));
const FinancialStatementsSection = lazy(() =>
  statements().then((m) => ({ default: m.FinancialStatementsSection })),
);
const ProfilePanels = lazy(() => import("./company-profile").then((m) => ({ default: m.ProfilePanels })));
const BalanceSheetV3Section = lazy(() => statements().then((m) => ({ default: m.BalanceSheetV3Section })));

const SECTIONS = [
  ["calls", "Calls"],
  ["earnings", "Earnings dates"],
  ["market-cap", "Market cap"],
  ["valuation", "Valuation"],
  ["operation-ratios", "Operations"],
  ["earning-reports", "Earnings"],
  ["financials", "Statements"],
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
        <CompanyImportedCalls symbol={symbol} />
        {/* Side by side only where both tables fit whole: nothing is cut at a panel's edge. */}
        <div className="grid gap-6 min-[1800px]:grid-cols-2">
          <CompanyCalls symbol={symbol} />
          <CompanyEarnings symbol={symbol} />
        </div>
        <MarketCapChart symbol={symbol} />
        <Later height={460}>
          <ValuationSection symbol={symbol} />
        </Later>
        <Later height={420}>
          <OperationRatiosSection symbol={symbol} />
        </Later>
        <Later height={420}>
          <EarningReportsSection symbol={symbol} />
        </Later>
        <Later height={400}>
          <EarningRatiosSection symbol={symbol} />
        </Later>
        <Later height={480}>
          <FinancialStatementsSection symbol={symbol} />
        </Later>
        <Later height={480}>
          <BalanceSheetV3Section symbol={symbol} />
        </Later>
        <Later height={400}>
          <CompanyDeals symbol={symbol} />
        </Later>
        <Later height={720}>
          <ProfilePanels symbol={symbol} />
        </Later>
      </div>
    </article>
  );
}

/**
 * A panel below the first screen: the browser lays it out and paints it only as it nears the viewport
 * (content-visibility), at `height` until then and at its real height once it has been seen. The page's first
 * frame no longer lays out a dozen tables nobody sees yet (a third of a second on a phone), and the text stays in
 * the page for find-in-page, anchors and screen readers.
 */
function Later({ height, children }: { height: number; children: ReactNode }) {
  return (
    <div className="[content-visibility:auto]" style={{ containIntrinsicSize: `auto ${height}px` }}>
      <Suspense
        fallback={
          <div style={{ height }}>
            <Skeleton className="h-full w-full" />
          </div>
        }
      >
        {children}
      </Suspense>
    </div>
  );
}
