"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { CallLink } from "@/components/calendar/call-link";
import { matchCallsToRows } from "@/lib/call-match";
import type { CallListItem } from "@/lib/schemas/calls";
import { useCompanyCalls } from "./company-calls";
import { Actual, Confirmed, Surprise } from "@/components/calendar/figures";
import { ReportTime } from "@/components/calendar/report-time";
import { useTimeZone } from "@/components/ui/use-time-zone";
import { Section } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { easternDate } from "@/common/time/eastern";
import { formatDate, formatEps, formatMoney } from "@/lib/format";
import { calendarQueries } from "@/lib/queries/calendar";
import { companyFilters } from "@/lib/queries/company";
import type { EarningsRow } from "@/lib/schemas/calendar";
import { Th } from "@/components/ui/table";
import { DealsTable } from "./deals-table";
import { QueryPanel } from "./query-panel";
import { useNearViewport } from "./use-near-viewport";

const TD = "h-[30px] border-b border-line px-2 whitespace-nowrap";

const EARNINGS_HEADERS: readonly (readonly [string, boolean])[] = [
  ["Date", false],
  ["Time", false],
  ["Period", false],
  ["Call", false],
  ["EPS est.", true],
  ["EPS", true],
  ["Surprise", true],
  ["Revenue", true],
  ["Surprise", true],
];

/**
 * The company's earnings dates from the calendar: upcoming first (soonest on top), then past (latest on top), each
 * past quarter a way into its call (the company's calls, matched by quarter or date).
 */
export function CompanyEarnings({ symbol }: { symbol: string }) {
  const timeZone = useTimeZone();
  const result = useQuery(calendarQueries.earnings(companyFilters.earnings(symbol)));
  const calls = useCompanyCalls(symbol);
  const rows = result.data?.data;
  const callOf = useMemo(() => matchCallsToRows(rows ?? [], calls.data?.data ?? []), [rows, calls.data]);
  return (
    <Section title="Earnings dates" id="earnings">
      <QueryPanel result={result} what="earnings dates" isEmpty={(d) => d.data.length === 0}>
        {(d) => {
          const today = easternDate(new Date());
          const upcoming = d.data.filter((r) => r.date >= today && r.eps === null).reverse();
          const past = d.data.filter((r) => !(r.date >= today && r.eps === null));
          return (
            <div tabIndex={0} className="border-line max-h-[420px] overflow-auto rounded border">
              <table className="w-full border-collapse text-[13px] tabular-nums">
                <caption className="sr-only">Upcoming and past earnings of {symbol}</caption>
                <thead>
                  <tr>
                    {EARNINGS_HEADERS.map(([label, numeric], i) => (
                      <Th key={i} numeric={numeric}>
                        {label}
                      </Th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {upcoming.length > 0 ? <GroupRow label="Upcoming" /> : null}
                  {upcoming.map((r) => (
                    <EarningsLine key={r.id} row={r} timeZone={timeZone} call={callOf.get(r.id)} />
                  ))}
                  {past.length > 0 ? <GroupRow label="Reported" /> : null}
                  {past.map((r) => (
                    <EarningsLine key={r.id} row={r} timeZone={timeZone} call={callOf.get(r.id)} />
                  ))}
                </tbody>
              </table>
            </div>
          );
        }}
      </QueryPanel>
    </Section>
  );
}

function GroupRow({ label }: { label: string }) {
  return (
    <tr>
      <th
        scope="rowgroup"
        colSpan={9}
        className="border-line bg-surface/60 text-2xs text-muted h-7 border-b px-2 text-left font-semibold uppercase"
      >
        {label}
      </th>
    </tr>
  );
}

function EarningsLine({
  row: r,
  timeZone,
  call,
}: {
  row: EarningsRow;
  timeZone: string;
  call: CallListItem | undefined;
}) {
  return (
    <tr
      className="hover:bg-surface"
      data-testid="company-earnings-row"
      data-period={`${r.period} ${r.periodYear}`}
    >
      <td className={TD}>
        {formatDate(r.date, { weekday: true })} <Confirmed value={r.isDateConfirmed} />
      </td>
      <td className={TD}>
        <ReportTime date={r.date} time={r.time} timeZone={timeZone} />
      </td>
      <td className={TD}>
        {r.period} {r.periodYear}
      </td>
      <td className={TD}>
        <CallLink call={call} symbol={r.ticker} />
      </td>
      <td className={cn(TD, "text-right")}>{formatEps(r.epsEst)}</td>
      <td className={cn(TD, "text-right")}>
        <Actual text={formatEps(r.eps)} surprise={r.epsSurprisePercent} />
      </td>
      <td className={cn(TD, "text-right")}>
        <Surprise percent={r.epsSurprisePercent} />
      </td>
      <td className={cn(TD, "text-right")}>
        <Actual
          text={formatMoney(r.revenue ?? r.revenueEst, r.currency ?? "USD")}
          surprise={r.revenueSurprisePercent}
        />
        {r.revenue === null && r.revenueEst !== null ? (
          <span className="text-2xs text-muted ml-1">est.</span>
        ) : null}
      </td>
      <td className={cn(TD, "text-right")}>
        <Surprise percent={r.revenueSurprisePercent} />
      </td>
    </tr>
  );
}

export function CompanyDeals({ symbol }: { symbol: string }) {
  const [ref, isNear] = useNearViewport<HTMLElement>();
  const result = useQuery({ ...calendarQueries.ma(companyFilters.deals(symbol)), enabled: isNear });
  return (
    <Section ref={ref} title="M&A deals" id="deals">
      <QueryPanel
        result={result}
        what="M&A deals"
        isEmpty={(d) => d.data.length === 0}
        emptyHint="No deals with this company as acquirer or target."
      >
        {(d) => (
          <DealsTable
            deals={[...d.data].reverse()}
            caption={`M&A deals involving ${symbol}`}
            className="max-h-[360px]"
            partiesClassName="max-w-[28rem] min-w-72"
          />
        )}
      </QueryPanel>
    </Section>
  );
}
