"use client";

import { useQuery } from "@tanstack/react-query";
import { Actual, Confirmed, Surprise } from "@/components/calendar/figures";
import { Party } from "@/components/calendar/ma-calendar";
import { ReportTime } from "@/components/calendar/report-time";
import { useTimeZone } from "@/components/calendar/use-time-zone";
import { Badge } from "@/components/ui/badge";
import { Section } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { formatDate, formatEps, formatMoney, isoDateInZone } from "@/lib/format";
import { calendarQueries } from "@/lib/queries/calendar";
import type { EarningsRow } from "@/lib/schemas/calendar";
import { QueryPanel } from "./query-panel";

const TH =
  "sticky top-0 z-10 h-8 border-b border-line bg-surface px-2 text-2xs font-semibold whitespace-nowrap text-muted uppercase";
const TD = "h-[30px] border-b border-line px-2 whitespace-nowrap";

/** The company's earnings dates from the calendar: upcoming first (soonest on top), then past (latest on top). */
export function CompanyEarnings({ symbol }: { symbol: string }) {
  const timeZone = useTimeZone();
  const result = useQuery(
    calendarQueries.earnings({ tickers: [symbol], page: 0, pageSize: 100, sort: "date:desc" }),
  );
  return (
    <Section title="Earnings dates" id="earnings">
      <QueryPanel result={result} what="earnings dates" isEmpty={(d) => d.data.length === 0}>
        {(d) => {
          const today = isoDateInZone(new Date());
          const upcoming = d.data.filter((r) => r.date >= today && r.eps === null).reverse();
          const past = d.data.filter((r) => !(r.date >= today && r.eps === null));
          return (
            <div tabIndex={0} className="border-line max-h-[420px] overflow-auto rounded border">
              <table className="w-full border-collapse text-[13px] tabular-nums">
                <caption className="sr-only">Upcoming and past earnings of {symbol}</caption>
                <thead>
                  <tr>
                    <th scope="col" className={cn(TH, "text-left")}>
                      Date
                    </th>
                    <th scope="col" className={cn(TH, "text-left")}>
                      Time
                    </th>
                    <th scope="col" className={cn(TH, "text-left")}>
                      Period
                    </th>
                    <th scope="col" className={cn(TH, "text-right")}>
                      EPS est.
                    </th>
                    <th scope="col" className={cn(TH, "text-right")}>
                      EPS
                    </th>
                    <th scope="col" className={cn(TH, "text-right")}>
                      Surprise
                    </th>
                    <th scope="col" className={cn(TH, "text-right")}>
                      Revenue
                    </th>
                    <th scope="col" className={cn(TH, "text-right")}>
                      Surprise
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {upcoming.length > 0 ? <GroupRow label="Upcoming" /> : null}
                  {upcoming.map((r) => (
                    <EarningsLine key={r.id} row={r} timeZone={timeZone} />
                  ))}
                  {past.length > 0 ? <GroupRow label="Reported" /> : null}
                  {past.map((r) => (
                    <EarningsLine key={r.id} row={r} timeZone={timeZone} />
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
        colSpan={8}
        className="border-line bg-surface/60 text-2xs text-muted h-7 border-b px-2 text-left font-semibold uppercase"
      >
        {label}
      </th>
    </tr>
  );
}

function EarningsLine({ row: r, timeZone }: { row: EarningsRow; timeZone: string }) {
  return (
    <tr className="hover:bg-surface">
      <td className={TD}>
        {formatDate(r.date, { weekday: true })} <Confirmed value={r.isDateConfirmed} />
      </td>
      <td className={TD}>
        <ReportTime date={r.date} time={r.time} timeZone={timeZone} />
      </td>
      <td className={TD}>
        {r.period} {r.periodYear}
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
  const result = useQuery(
    calendarQueries.ma({ tickers: [symbol], page: 0, pageSize: 100, sort: "announced" }),
  );
  return (
    <Section title="M&A deals" id="deals">
      <QueryPanel
        result={result}
        what="M&A deals"
        isEmpty={(d) => d.data.length === 0}
        emptyHint="No deals with this company as acquirer or target."
      >
        {(d) => (
          <div tabIndex={0} className="border-line max-h-[360px] overflow-auto rounded border">
            <table className="w-full border-collapse text-[13px] tabular-nums">
              <caption className="sr-only">M&A deals involving {symbol}</caption>
              <thead>
                <tr>
                  <th scope="col" className={cn(TH, "text-left")}>
                    Announced
                  </th>
                  <th scope="col" className={cn(TH, "text-left")}>
                    Acquirer → target
                  </th>
                  <th scope="col" className={cn(TH, "text-right")}>
                    Size
                  </th>
                  <th scope="col" className={cn(TH, "text-left")}>
                    Status
                  </th>
                </tr>
              </thead>
              <tbody>
                {[...d.data].reverse().map((r) => (
                  <tr key={r.id} className="hover:bg-surface">
                    <td className={TD}>{formatDate(r.announcedDate)}</td>
                    <td className={cn(TD, "max-w-[28rem]")}>
                      <span className="grid grid-cols-[1fr_auto_1fr] items-baseline gap-2">
                        <Party party={r.acquirer} />
                        <span className="text-muted">
                          <span aria-hidden>→</span>
                          <span className="sr-only">acquires</span>
                        </span>
                        <Party party={r.target} />
                      </span>
                    </td>
                    <td className={cn(TD, "text-right")}>{formatMoney(r.dealSize, r.currency ?? "USD")}</td>
                    <td className={TD}>{r.dealStatus ? <Badge>{r.dealStatus}</Badge> : null}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryPanel>
    </Section>
  );
}
