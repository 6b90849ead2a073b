"use client";

import { cn } from "@/components/ui/cn";
import { TOAST_CORNER } from "@/components/alerts/toast-corner";
import { useQuery } from "@tanstack/react-query";
import { LineChart } from "@/components/charts/lazy-charts";
import { Badge } from "@/components/ui/badge";
import { Section } from "@/components/ui/card";
import { StaleNote } from "@/components/ui/panel-state";
import { Skeleton } from "@/components/ui/skeleton";
import { MISSING, formatDate, formatMoney } from "@/lib/format";
import { fundamentalsQueries } from "@/lib/queries/fundamentals";
import { QueryPanel } from "./query-panel";
import { CompanyPeers } from "./company-peers";
import { FollowButton } from "@/components/watchlists/follow-button";

export const text = (v: string | null | undefined) => (v && v.length > 0 ? v : MISSING);

/** Name, ticker, exchange, sector/industry, market cap and EV: the first thing an analyst checks. */
export function CompanyHeader({
  symbol,
  name,
  exchange,
}: {
  symbol: string;
  name: string;
  exchange: string | null;
}) {
  const all = useQuery(fundamentalsQueries.kind("all", [symbol]));
  const item = all.data?.data[0];
  const cls = item?.assetClassification;
  const share = item?.shareClass;
  const currency = share?.currency ?? "USD";
  return (
    <header
      className={cn(
        "border-line mb-4 flex flex-wrap content-start items-end justify-between gap-3 border-b pb-3",
        TOAST_CORNER,
      )}
    >
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="text-xl font-semibold tracking-tight">{name}</h1>
          <Badge tone="accent" className="font-mono">
            {symbol}
          </Badge>
          {exchange ? <Badge>{exchange}</Badge> : null}
          <FollowButton symbol={symbol} shortcut />
        </div>
        <p className="text-muted mt-0.5 text-[13px]">
          {all.isPending ? (
            <Skeleton className="mt-1 h-3 w-56" />
          ) : cls ? (
            <>
              {text(cls.msSectorName)} · {text(cls.msIndustryName)}
            </>
          ) : (
            "Sector and industry not available"
          )}
        </p>
        <CompanyPeers symbol={symbol} />
      </div>
      <dl className="flex gap-6 text-right">
        <div>
          <dt className="text-2xs text-muted uppercase">Market cap</dt>
          <dd className="text-lg font-semibold tabular-nums">
            {all.isPending ? <Skeleton className="h-6 w-20" /> : formatMoney(share?.marketCap, currency)}
          </dd>
        </div>
        <div>
          <dt className="text-2xs text-muted uppercase">Enterprise value</dt>
          <dd className="text-lg font-semibold tabular-nums">
            {all.isPending ? (
              <Skeleton className="h-6 w-20" />
            ) : (
              formatMoney(share?.enterpriseValue, currency)
            )}
          </dd>
        </div>
      </dl>
      {all.data?.meta.stale ? (
        <StaleNote fetchedAt={all.data.meta.fetchedAt} what="market cap and profile" className="basis-full" />
      ) : null}
    </header>
  );
}

/** Monthly market cap and EV, oldest to newest. */
export function MarketCapChart({ symbol }: { symbol: string }) {
  const history = useQuery(fundamentalsQueries.kind("share-class-profile", [symbol]));
  return (
    <Section title="Market cap and enterprise value" id="market-cap">
      <QueryPanel
        result={history}
        what="market cap history"
        isEmpty={(d) => (d.data[0]?.shareClassProfile.length ?? 0) === 0}
        skeletonHeight={240}
      >
        {(d) => {
          const points = [...(d.data[0]?.shareClassProfile ?? [])]
            .filter((p) => p.asOf)
            .sort((a, b) => (a.asOf ?? "").localeCompare(b.asOf ?? ""))
            .map((p) => ({ x: p.asOf!, marketCap: p.marketCap, enterpriseValue: p.enterpriseValue }));
          return (
            <LineChart
              data={points}
              series={[
                { key: "marketCap", label: "Market cap", color: "var(--accent)" },
                { key: "enterpriseValue", label: "Enterprise value", color: "var(--muted)", dashed: true },
              ]}
              formatY={(v) => formatMoney(v)}
              formatX={(x) => formatDate(x).replace(/ \d+,/, "")}
              height={240}
              ariaLabel={`Market cap and enterprise value of ${symbol}, monthly`}
            />
          );
        }}
      </QueryPanel>
    </Section>
  );
}
