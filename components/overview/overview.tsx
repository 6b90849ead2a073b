"use client";

import { useQuery } from "@tanstack/react-query";
import { IntentLink } from "@/components/ui/intent-link";
import { Importance, Surprise } from "@/components/calendar/figures";
import { ReportTime } from "@/components/calendar/report-time";
import { useTimeZone } from "@/components/ui/use-time-zone";
import { DealsTable } from "@/components/company/deals-table";
import { QueryPanel } from "@/components/company/query-panel";
import { ScrollTable, Td, Th, Tr } from "@/components/ui/table";
import { Section } from "@/components/ui/card";
import { easternDate } from "@/common/time/eastern";
import { addDaysIso, formatDate, formatEps } from "@/lib/format";
import { calendarQueries } from "@/lib/queries/calendar";
import { overviewFilters } from "@/lib/queries/overview";
import type { EarningsRow } from "@/lib/schemas/calendar";

function byImportance(a: EarningsRow, b: EarningsRow) {
  return b.importance - a.importance || (a.time ?? "").localeCompare(b.time ?? "");
}

export function Overview() {
  const timeZone = useTimeZone();
  const today = easternDate(new Date());
  // The page prefetched these on the server (same filters, same keys), so the first render has their rows.
  const filters = overviewFilters(today);
  const todayQuery = useQuery(calendarQueries.earnings(filters.today));
  const weekQuery = useQuery(calendarQueries.earnings(filters.week));
  const maQuery = useQuery(calendarQueries.ma(filters.ma));

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
      <Section
        title={
          <>
            Recent M&A <span className="text-muted font-normal">· last 30 days</span>
          </>
        }
        id="ma"
        className="xl:col-span-2"
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
    <ScrollTable caption={caption}>
      <thead>
        <tr>
          {withDate ? <Th>Date</Th> : null}
          <Th>Time</Th>
          <Th>Company</Th>
          <Th numeric>EPS est.</Th>
          <Th numeric>EPS</Th>
          <Th numeric>Surprise</Th>
          <Th>Imp.</Th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <Tr key={r.id}>
            {withDate ? <Td>{formatDate(r.date, { weekday: true, year: false })}</Td> : null}
            <Td>
              <ReportTime date={r.date} time={r.time} timeZone={timeZone} />
            </Td>
            <Td className="max-w-64">
              <span className="flex min-w-0 items-baseline gap-2">
                <IntentLink
                  href={`/companies/${encodeURIComponent(r.ticker)}`}
                  className="text-accent font-mono font-semibold hover:underline"
                >
                  {r.ticker}
                </IntentLink>
                <span className="truncate">{r.name}</span>
              </span>
            </Td>
            <Td numeric>{formatEps(r.epsEst)}</Td>
            <Td numeric>{formatEps(r.eps)}</Td>
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
  );
}
