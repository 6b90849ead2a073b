"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Party } from "@/components/calendar/ma-calendar";
import { Importance, Surprise } from "@/components/calendar/figures";
import { ReportTime } from "@/components/calendar/report-time";
import { useTimeZone } from "@/components/calendar/use-time-zone";
import { QueryPanel } from "@/components/company/query-panel";
import { Badge } from "@/components/ui/badge";
import { Section } from "@/components/ui/card";
import { addDaysIso, formatDate, formatEps, formatMoney, isoDateInZone } from "@/lib/format";
import { calendarQueries } from "@/lib/queries/calendar";
import type { EarningsRow } from "@/lib/schemas/calendar";

const TD = "h-[30px] border-b border-line px-2 whitespace-nowrap";

function byImportance(a: EarningsRow, b: EarningsRow) {
  return b.importance - a.importance || (a.time ?? "").localeCompare(b.time ?? "");
}

export function Overview() {
  const timeZone = useTimeZone();
  const today = isoDateInZone(new Date());
  const todayQuery = useQuery(
    calendarQueries.earnings({ from: today, to: today, page: 0, pageSize: 1000, sort: "date:asc" }),
  );
  const weekQuery = useQuery(
    calendarQueries.earnings({
      from: addDaysIso(today, 1),
      to: addDaysIso(today, 7),
      importance: 3,
      page: 0,
      pageSize: 200,
      sort: "date:asc",
    }),
  );
  const maQuery = useQuery(
    calendarQueries.ma({
      from: addDaysIso(today, -30),
      to: today,
      page: 0,
      pageSize: 200,
      sort: "announced",
    }),
  );

  return (
    <div className="grid gap-8 xl:grid-cols-2">
      <Section
        title={
          <>
            Today’s earnings{" "}
            <span className="text-muted font-normal">
              · {formatDate(today, { weekday: true })}
              {todayQuery.data ? ` · ${todayQuery.data.data.length} reports` : ""}
            </span>
          </>
        }
        id="today"
        actions={
          <Link href="/calendar/earnings?range=today" className="text-accent text-[13px] hover:underline">
            All of today →
          </Link>
        }
      >
        <QueryPanel
          result={todayQuery}
          what="today’s earnings"
          emptyTitle="No earnings reports today."
          isEmpty={(d) => d.data.length === 0}
          emptyHint="See this week’s calendar for what is coming."
        >
          {(d) => (
            <EarningsList
              rows={[...d.data].sort(byImportance).slice(0, 12)}
              timeZone={timeZone}
              caption="Most important reports today"
            />
          )}
        </QueryPanel>
      </Section>
      <Section
        title={
          <>
            Upcoming <span className="text-muted font-normal">· next 7 days · importance 3+</span>
          </>
        }
        id="week"
        actions={
          <Link
            href={`/calendar/earnings?range=custom&from=${addDaysIso(today, 1)}&to=${addDaysIso(today, 7)}&importance=3`}
            className="text-accent text-[13px] hover:underline"
          >
            Calendar view →
          </Link>
        }
      >
        <QueryPanel
          result={weekQuery}
          what="upcoming earnings"
          emptyTitle="No important reports in the next 7 days."
          isEmpty={(d) => d.data.length === 0}
          emptyHint="Nothing important in the next 7 days. Try a wider range in the calendar."
        >
          {(d) => (
            <EarningsList
              rows={d.data.slice(0, 12)}
              timeZone={timeZone}
              caption="Upcoming important reports this week"
              withDate
            />
          )}
        </QueryPanel>
      </Section>
      <Section
        title={
          <>
            Recent M&A <span className="text-muted font-normal">· last 30 days</span>
          </>
        }
        id="ma"
        className="xl:col-span-2"
        actions={
          <Link href="/calendar/ma" className="text-accent text-[13px] hover:underline">
            M&A calendar →
          </Link>
        }
      >
        <QueryPanel
          result={maQuery}
          what="recent deals"
          emptyTitle="No recent deals."
          isEmpty={(d) => d.data.length === 0}
          emptyHint="No deals announced in the last 30 days."
        >
          {(d) => (
            <div tabIndex={0} className="border-line overflow-auto rounded border">
              <table className="w-full border-collapse text-[13px] tabular-nums">
                <caption className="sr-only">Deals announced in the last 30 days, newest first</caption>
                <thead>
                  <tr className="text-2xs text-muted uppercase">
                    <th
                      scope="col"
                      className="border-line bg-surface h-8 border-b px-2 text-left font-semibold"
                    >
                      Announced
                    </th>
                    <th
                      scope="col"
                      className="border-line bg-surface h-8 border-b px-2 text-left font-semibold"
                    >
                      Acquirer → target
                    </th>
                    <th
                      scope="col"
                      className="border-line bg-surface h-8 border-b px-2 text-right font-semibold"
                    >
                      Size
                    </th>
                    <th
                      scope="col"
                      className="border-line bg-surface h-8 border-b px-2 text-left font-semibold"
                    >
                      Status
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {[...d.data]
                    .reverse()
                    .slice(0, 10)
                    .map((r) => (
                      <tr key={r.id} className="hover:bg-surface">
                        <td className={TD}>{formatDate(r.announcedDate)}</td>
                        <td className={`${TD} max-w-[36rem]`}>
                          <span className="grid grid-cols-[1fr_auto_1fr] items-baseline gap-2">
                            <Party party={r.acquirer} />
                            <span className="text-muted">
                              <span aria-hidden>→</span>
                              <span className="sr-only">acquires</span>
                            </span>
                            <Party party={r.target} />
                          </span>
                        </td>
                        <td className={`${TD} text-right`}>{formatMoney(r.dealSize, r.currency ?? "USD")}</td>
                        <td className={TD}>{r.dealStatus ? <Badge>{r.dealStatus}</Badge> : null}</td>
                      </tr>
                    ))}
                </tbody>
              </table>
            </div>
          )}
        </QueryPanel>
      </Section>
    </div>
  );
}

function EarningsList({
  rows,
  timeZone,
  caption,
  withDate,
}: {
  rows: readonly EarningsRow[];
  timeZone: string;
  caption: string;
  withDate?: boolean;
}) {
  return (
    <div tabIndex={0} className="border-line overflow-auto rounded border">
      <table className="w-full border-collapse text-[13px] tabular-nums">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="text-2xs text-muted uppercase">
            {withDate ? (
              <th scope="col" className="border-line bg-surface h-8 border-b px-2 text-left font-semibold">
                Date
              </th>
            ) : null}
            <th scope="col" className="border-line bg-surface h-8 border-b px-2 text-left font-semibold">
              Time
            </th>
            <th scope="col" className="border-line bg-surface h-8 border-b px-2 text-left font-semibold">
              Company
            </th>
            <th scope="col" className="border-line bg-surface h-8 border-b px-2 text-right font-semibold">
              EPS est.
            </th>
            <th scope="col" className="border-line bg-surface h-8 border-b px-2 text-right font-semibold">
              EPS
            </th>
            <th scope="col" className="border-line bg-surface h-8 border-b px-2 text-right font-semibold">
              Surprise
            </th>
            <th scope="col" className="border-line bg-surface h-8 border-b px-2 text-left font-semibold">
              Imp.
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} className="hover:bg-surface">
              {withDate ? <td className={TD}>{formatDate(r.date, { weekday: true, year: false })}</td> : null}
              <td className={TD}>
                <ReportTime date={r.date} time={r.time} timeZone={timeZone} />
              </td>
              <td className={`${TD} max-w-64`}>
                <span className="flex min-w-0 items-baseline gap-2">
                  <Link
                    href={`/companies/${encodeURIComponent(r.ticker)}`}
                    className="text-accent font-mono font-semibold hover:underline"
                  >
                    {r.ticker}
                  </Link>
                  <span className="truncate">{r.name}</span>
                </span>
              </td>
              <td className={`${TD} text-right`}>{formatEps(r.epsEst)}</td>
              <td className={`${TD} text-right`}>{formatEps(r.eps)}</td>
              <td className={`${TD} text-right`}>
                <Surprise percent={r.epsSurprisePercent} />
              </td>
              <td className={TD}>
                <Importance value={r.importance} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
