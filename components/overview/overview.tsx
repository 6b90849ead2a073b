"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { IntentLink } from "@/components/ui/intent-link";
import { CallLink } from "@/components/calendar/call-link";
import { EarningsCards } from "@/components/calendar/earnings-cards";
import { Importance, Actual, Surprise } from "@/components/calendar/figures";
import { ReportTime } from "@/components/calendar/report-time";
import { useTimeZone } from "@/components/ui/use-time-zone";
import { DealsTable } from "@/components/company/deals-table";
import { QueryPanel } from "@/components/company/query-panel";
import { ScrollTable, Td, Th, Tr } from "@/components/ui/table";
import { Section } from "@/components/ui/card";
import { easternDate } from "@/common/time/eastern";
import { EmptyState, ErrorState, StaleNote } from "@/components/ui/panel-state";
import { Skeleton } from "@/components/ui/skeleton";
import { FollowButton } from "@/components/watchlists/follow-button";
import { addDaysIso, formatCount, formatDate, formatEps, presetRange } from "@/lib/format";
import { calendarQueries } from "@/lib/queries/calendar";
import { useFollowedReports } from "@/lib/queries/followed-reports";
import { overviewFilters } from "@/lib/queries/overview";
import { useReportCalls } from "@/lib/queries/report-calls";
import { watchlistQueries } from "@/lib/queries/watchlists";
import type { EarningsRow } from "@/lib/schemas/calendar";
import type { CallListItem } from "@/lib/schemas/calls";
import { LiveNow } from "./live-now";

function byImportance(a: EarningsRow, b: EarningsRow) {
  return b.importance - a.importance || (a.time ?? "").localeCompare(b.time ?? "");
}

/**
 * The analyst's morning, in the order the day asks for it: what is live now and about to start, then every report
 * of the companies they follow today and this week (whatever its importance), then the wider calendar (today's
 * reports, the important ones of the week, recent deals). Every report whose call exists opens it.
 */
export function Overview() {
  const timeZone = useTimeZone();
  const today = easternDate(new Date());
  // The page prefetched these on the server (same filters, same keys), so the first render has their rows.
  const filters = overviewFilters(today);
  const todayQuery = useQuery(calendarQueries.earnings(filters.today));
  const weekQuery = useQuery(calendarQueries.earnings(filters.week));
  const maQuery = useQuery(calendarQueries.ma(filters.ma));
  const todayRows = useMemo(() => todayQuery.data?.data ?? [], [todayQuery.data]);
  const todayCalls = useReportCalls(todayRows);

  return (
    <div className="flex flex-col gap-8">
      <LiveNow todayRows={todayRows} todayCalls={todayCalls} />
      <MyCompanies today={today} timeZone={timeZone} />
      <div className="grid gap-8 xl:grid-cols-2">
        <Section
          title={
            <>
              Today’s earnings{" "}
              <span className="text-muted font-normal">
                · {formatDate(today, { weekday: true })}
                {todayQuery.data ? ` · ${formatCount(todayQuery.data.data.length, "report")}` : ""}
              </span>
            </>
          }
          id="today"
          actions={
            <IntentLink
              href="/calendar/earnings?range=today"
              className="text-accent text-[13px] hover:underline"
            >
              All of today →
            </IntentLink>
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
                calls={todayCalls}
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
            <IntentLink
              href={`/calendar/earnings?range=custom&from=${addDaysIso(today, 1)}&to=${addDaysIso(today, 7)}&importance=3`}
              className="text-accent text-[13px] hover:underline"
            >
              Calendar view →
            </IntentLink>
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
      </div>
      <Section
        title={
          <>
            Recent M&A <span className="text-muted font-normal">· last 30 days</span>
          </>
        }
        id="ma"
        actions={
          <IntentLink href="/calendar/ma" className="text-accent text-[13px] hover:underline">
            M&A calendar →
          </IntentLink>
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
            <DealsTable
              deals={[...d.data].reverse().slice(0, 10)}
              caption="Deals announced in the last 30 days, newest first"
              partiesClassName="max-w-[36rem] min-w-72"
            />
          )}
        </QueryPanel>
      </Section>
    </div>
  );
}

/** Every report of the followed companies this week so far and a week out, whatever its importance. */
function MyCompanies({ today, timeZone }: { today: string; timeZone: string }) {
  const lists = useQuery(watchlistQueries.list());
  const tickers = useMemo(() => [...new Set(lists.data?.data.flatMap((l) => l.tickers) ?? [])], [lists.data]);
  // This week so far (what just reported, with its call) and the seven days ahead.
  const from =
    presetRange("this-week").from < addDaysIso(today, -1)
      ? presetRange("this-week").from
      : addDaysIso(today, -1);
  const to = addDaysIso(today, 7);
  const reports = useFollowedReports(tickers, from, to);
  const calls = useReportCalls(reports.rows);
  const todayCount = reports.rows.filter((r) => r.date === today).length;

  let body;
  if (lists.isPending || (tickers.length > 0 && reports.isPending)) {
    body = (
      <div
        role="status"
        aria-label="Loading your companies’ reports"
        aria-busy
        className="flex flex-col gap-1"
      >
        {Array.from({ length: 4 }, (_, i) => (
          <Skeleton key={i} className="h-[30px] w-full" />
        ))}
      </div>
    );
  } else if (lists.isError) {
    body = (
      <ErrorState
        title="Could not load your watchlists"
        message={lists.error.message}
        onRetry={() => void lists.refetch()}
      />
    );
  } else if (tickers.length === 0) {
    body = (
      <EmptyState
        title="You follow no company yet"
        hint={
          <>
            Follow companies with ☆ on the{" "}
            <IntentLink className="text-accent hover:underline" href="/calendar/earnings">
              earnings calendar
            </IntentLink>{" "}
            or a company page, or build a list in{" "}
            <IntentLink className="text-accent hover:underline" href="/watchlists">
              Watchlists
            </IntentLink>
            : their reports and calls lead this page.
          </>
        }
      />
    );
  } else if (reports.isError && reports.rows.length === 0) {
    body = (
      <ErrorState
        title="Could not load your companies’ reports"
        message={reports.error?.message}
        onRetry={reports.refetch}
      />
    );
  } else if (reports.rows.length === 0) {
    body = (
      <EmptyState
        title={`None of your ${formatCount(tickers.length, "company", "companies")} reports this week or next`}
        hint={
          <IntentLink className="text-accent hover:underline" href="/calendar/earnings?range=next-week">
            See next week’s calendar
          </IntentLink>
        }
      />
    );
  } else {
    body = (
      <>
        {reports.stale ? (
          <StaleNote fetchedAt={reports.stale.fetchedAt} timeZone={timeZone} what="your companies’ reports" />
        ) : null}
        <div className="max-md:hidden">
          <EarningsList
            rows={reports.rows}
            calls={calls}
            timeZone={timeZone}
            caption="Your companies’ reports this week and the next 7 days"
            withDate
            testId="my-reports"
            follow
          />
        </div>
        <div className="md:hidden">
          <EarningsCards rows={reports.rows} calls={calls} timeZone={timeZone} testId="my-reports-cards" />
        </div>
        {reports.omitted > 0 ? (
          <p className="text-2xs text-muted mt-1">
            {formatCount(reports.omitted, "followed company", "followed companies")} past the first 200 left
            out.
          </p>
        ) : null}
      </>
    );
  }

  return (
    <Section
      id="mine"
      title={
        <>
          My companies{" "}
          <span className="text-muted font-normal">
            · this week and the next 7 days
            {reports.rows.length > 0
              ? ` · ${formatCount(todayCount, "report")} today, ${formatCount(reports.rows.length, "report")} in all`
              : ""}
          </span>
        </>
      }
      actions={
        tickers.length > 0 ? (
          <IntentLink href="/watchlists" className="text-accent text-[13px] hover:underline">
            Watchlists →
          </IntentLink>
        ) : null
      }
    >
      {body}
    </Section>
  );
}

function EarningsList({
  rows,
  calls,
  timeZone,
  caption,
  withDate,
  follow,
  testId,
}: {
  rows: readonly EarningsRow[];
  /** The reports' calls, when looked up (a column of links into them). */
  calls?: ReadonlyMap<string, CallListItem>;
  timeZone: string;
  caption: string;
  withDate?: boolean;
  follow?: boolean;
  testId?: string;
}) {
  return (
    <div data-testid={testId}>
      <ScrollTable caption={caption}>
        <thead>
          <tr>
            {withDate ? <Th>Date</Th> : null}
            <Th>Time</Th>
            <Th>Company</Th>
            {calls ? <Th>Call</Th> : null}
            <Th numeric>EPS est.</Th>
            <Th numeric>EPS</Th>
            <Th numeric>Surprise</Th>
            <Th>Imp.</Th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <Tr key={r.id} data-testid="overview-report" data-ticker={r.ticker}>
              {withDate ? <Td>{formatDate(r.date, { weekday: true, year: false })}</Td> : null}
              <Td>
                <ReportTime date={r.date} time={r.time} timeZone={timeZone} />
              </Td>
              <Td className="max-w-64">
                <span className="flex min-w-0 items-baseline gap-2">
                  {follow ? <FollowButton symbol={r.ticker} compact className="self-center" /> : null}
                  <IntentLink
                    href={`/companies/${encodeURIComponent(r.ticker)}`}
                    className="text-accent font-mono font-semibold hover:underline"
                  >
                    {r.ticker}
                  </IntentLink>
                  <span className="truncate">{r.name}</span>
                </span>
              </Td>
              {calls ? (
                <Td>
                  <CallLink call={calls.get(r.id)} symbol={r.ticker} />
                </Td>
              ) : null}
              <Td numeric>{formatEps(r.epsEst)}</Td>
              <Td numeric>
                <Actual text={formatEps(r.eps)} surprise={r.epsSurprisePercent} />
              </Td>
              <Td numeric>
                <Surprise percent={r.epsSurprisePercent} />
              </Td>
              <Td>
                <Importance value={r.importance} />
              </Td>
            </Tr>
          ))}
        </tbody>
      </ScrollTable>
    </div>
  );
}
