"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { EmptyState, ErrorState } from "@/components/ui/panel-state";
import { Skeleton } from "@/components/ui/skeleton";
import { easternDate } from "@/common/time/eastern";
import { addDaysIso, formatEps, formatMoney } from "@/lib/format";
import { watchlistQueries } from "@/lib/queries/watchlists";
import type { Watchlist } from "@/lib/schemas/watchlists";

/**
 * The earnings and M&A calendars filtered by one watchlist, over any number of tickers (the server splits them into
 * requests of 50 and merges the answers). Earnings: the last 30 and next 90 days; M&A: the last year.
 */
export function WatchlistCalendars({ list }: { list: Watchlist }) {
  const [kind, setKind] = useState<"earnings" | "ma">("earnings");
  const today = easternDate(new Date());
  return (
    <section aria-label={`Calendars of ${list.name}`} className="flex flex-col gap-2">
      <div className="flex items-center gap-2">
        <h2 className="font-semibold">{list.name}: calendars</h2>
        <Button
          variant={kind === "earnings" ? "default" : "ghost"}
          aria-pressed={kind === "earnings"}
          onClick={() => setKind("earnings")}
        >
          Earnings
        </Button>
        <Button
          variant={kind === "ma" ? "default" : "ghost"}
          aria-pressed={kind === "ma"}
          onClick={() => setKind("ma")}
        >
          M&amp;A
        </Button>
      </div>
      {list.tickers.length === 0 ? (
        <EmptyState title="This watchlist is empty" hint="Add tickers to see their reports and deals." />
      ) : kind === "earnings" ? (
        <EarningsTable id={list.id} from={addDaysIso(today, -30)} to={addDaysIso(today, 90)} />
      ) : (
        <MaTable id={list.id} from={addDaysIso(today, -365)} to={today} />
      )}
    </section>
  );
}

const TH = "text-2xs text-muted px-2 py-1 text-left font-medium";
const TD = "px-2 py-1";

function EarningsTable({ id, from, to }: { id: string; from: string; to: string }) {
  const { data, error, isPending, refetch } = useQuery(watchlistQueries.earnings(id, from, to));
  if (isPending) return <Skeleton className="h-32 w-full" />;
  if (error)
    return (
      <ErrorState
        title="Could not load the earnings calendar"
        message={error.message}
        onRetry={() => void refetch()}
      />
    );
  if (data.data.length === 0)
    return <EmptyState title="No reports in these dates" hint={`${from} to ${to}`} />;
  return (
    <table className="w-full text-[13px]" data-testid="watchlist-earnings">
      <thead className="border-line border-b">
        <tr>
          <th className={TH}>Date</th>
          <th className={TH}>Ticker</th>
          <th className={TH}>Company</th>
          <th className={TH}>Period</th>
          <th className={`${TH} text-right`}>EPS est.</th>
          <th className={`${TH} text-right`}>EPS</th>
          <th className={`${TH} text-right`}>Revenue</th>
        </tr>
      </thead>
      <tbody>
        {data.data.map((row) => (
          <tr key={row.id} className="border-line border-b" data-ticker={row.ticker}>
            <td className={`${TD} tabular-nums`}>{row.date}</td>
            <td className={`${TD} font-semibold`}>{row.ticker}</td>
            <td className={TD}>{row.name}</td>
            <td className={TD}>{[row.period, row.periodYear].filter(Boolean).join(" ")}</td>
            <td className={`${TD} text-right tabular-nums`}>{formatEps(row.epsEst)}</td>
            <td className={`${TD} text-right tabular-nums`}>{formatEps(row.eps)}</td>
            <td className={`${TD} text-right tabular-nums`}>
              {formatMoney(row.revenue, row.currency ?? "USD")}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function MaTable({ id, from, to }: { id: string; from: string; to: string }) {
  const { data, error, isPending, refetch } = useQuery(watchlistQueries.ma(id, from, to));
  if (isPending) return <Skeleton className="h-32 w-full" />;
  if (error)
    return (
      <ErrorState
        title="Could not load the M&A calendar"
        message={error.message}
        onRetry={() => void refetch()}
      />
    );
  if (data.data.length === 0) return <EmptyState title="No deals in these dates" hint={`${from} to ${to}`} />;
  return (
    <table className="w-full text-[13px]" data-testid="watchlist-ma">
      <thead className="border-line border-b">
        <tr>
          <th className={TH}>Announced</th>
          <th className={TH}>Acquirer</th>
          <th className={TH}>Target</th>
          <th className={TH}>Status</th>
          <th className={`${TH} text-right`}>Size</th>
        </tr>
      </thead>
      <tbody>
        {data.data.map((row) => (
          <tr key={row.id} className="border-line border-b">
            <td className={`${TD} tabular-nums`}>{row.announcedDate}</td>
            <td className={TD}>{row.acquirer.ticker ?? row.acquirer.name ?? "—"}</td>
            <td className={TD}>{row.target.ticker ?? row.target.name ?? "—"}</td>
            <td className={TD}>{row.dealStatus ?? "—"}</td>
            <td className={`${TD} text-right tabular-nums`}>
              {formatMoney(row.dealSize, row.currency ?? "USD")}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
