"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { EmptyState, ErrorState } from "@/components/ui/panel-state";
import { easternDate } from "@/common/time/eastern";
import { useMemo } from "react";
import { earningsColumns } from "@/components/calendar/earnings-calendar";
import { EarningsCards } from "@/components/calendar/earnings-cards";
import { maColumns } from "@/components/calendar/ma-calendar";
import { IntentLink } from "@/components/ui/intent-link";
import { useTimeZone } from "@/components/ui/use-time-zone";
import { VirtualTable, VirtualTableSkeleton } from "@/components/ui/virtual-table";
import { addDaysIso, formatDate } from "@/lib/format";
import { compareEarnings, compareMa } from "@/lib/queries/calendar";
import { useReportCalls } from "@/lib/queries/report-calls";
import { watchlistQueries } from "@/lib/queries/watchlists";
import type { Watchlist } from "@/lib/schemas/watchlists";

/**
 * The earnings and M&A calendars filtered by one watchlist, over any number of tickers (the server splits them into
 * requests of 50 and merges the answers), in the main calendars' own tables. Earnings: the last 30 and next 90 days,
 * earliest first; M&A: the last year, newest first.
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
        <IntentLink
          href={`/calendar/${kind === "earnings" ? "earnings" : "ma"}?watchlist=${encodeURIComponent(list.id)}&range=${kind === "earnings" ? "this-week" : "last-30-days"}`}
          className="text-accent ml-auto text-[13px] hover:underline"
        >
          Open in the {kind === "earnings" ? "earnings" : "M&A"} calendar →
        </IntentLink>
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

/** The main calendars' own table (columns, call links, row height), with the cards of the earnings calendar on phones. */
function EarningsTable({ id, from, to }: { id: string; from: string; to: string }) {
  const timeZone = useTimeZone();
  const { data, error, isPending, refetch } = useQuery(watchlistQueries.earnings(id, from, to));
  const rows = useMemo(() => [...(data?.data ?? [])].sort(compareEarnings("date:asc")), [data]);
  const calls = useReportCalls(rows);
  const columns = useMemo(() => earningsColumns(timeZone, calls), [timeZone, calls]);
  if (isPending)
    return <VirtualTableSkeleton columns={columns} rows={6} label="Loading the watchlist's reports" />;
  if (error)
    return (
      <ErrorState
        title="Could not load the earnings calendar"
        message={error.message}
        onRetry={() => void refetch()}
      />
    );
  if (rows.length === 0)
    return (
      <EmptyState
        title="No reports in these dates"
        hint={`${formatDate(from)} to ${formatDate(to)}: none of this watchlist's companies reports.`}
      />
    );
  return (
    <>
      <VirtualTable
        rows={rows}
        columns={columns}
        rowKey={(r) => r.id}
        rowData={(r) => r.ticker}
        caption="The watchlist's earnings reports, earliest first"
        className="max-h-[min(60dvh,720px)] max-md:hidden"
        testId="watchlist-earnings"
        rowTestId="earnings-row"
      />
      <div className="md:hidden">
        <EarningsCards rows={rows} calls={calls} timeZone={timeZone} testId="watchlist-earnings-cards" />
      </div>
    </>
  );
}

function MaTable({ id, from, to }: { id: string; from: string; to: string }) {
  const { data, error, isPending, refetch } = useQuery(watchlistQueries.ma(id, from, to));
  const rows = useMemo(() => [...(data?.data ?? [])].sort(compareMa("announced")), [data]);
  const columns = useMemo(() => maColumns(), []);
  if (isPending)
    return <VirtualTableSkeleton columns={columns} rows={6} label="Loading the watchlist's deals" />;
  if (error)
    return (
      <ErrorState
        title="Could not load the M&A calendar"
        message={error.message}
        onRetry={() => void refetch()}
      />
    );
  if (rows.length === 0)
    return (
      <EmptyState
        title="No deals in these dates"
        hint={`${formatDate(from)} to ${formatDate(to)}: no deal names this watchlist's companies.`}
      />
    );
  return (
    <VirtualTable
      rows={rows}
      columns={columns}
      rowKey={(r) => r.id}
      caption="Deals of the watchlist's companies, newest first"
      className="max-h-[min(60dvh,720px)]"
      testId="watchlist-ma"
      rowTestId="ma-row"
    />
  );
}
