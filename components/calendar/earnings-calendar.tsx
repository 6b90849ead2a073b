"use client";

import { IntentLink } from "@/components/ui/intent-link";
import { useQueryStates } from "nuqs";
import { useEffect, useMemo, useRef } from "react";
import { useTimeZone } from "@/components/ui/use-time-zone";
import { Button } from "@/components/ui/button";
import type { VirtualColumn } from "@/components/ui/virtual-table";
import { toCsv } from "@/lib/export/csv";
import { downloadText } from "@/lib/export/download";
import { toIcs } from "@/lib/export/ics";
import { easternToDate } from "@/common/time/eastern";
import {
  SESSION_LABEL,
  formatDate,
  formatEps,
  formatMoney,
  formatPercent,
  marketSession,
} from "@/lib/format";
import { calendarQueries, compareEarnings, fetchEarnings } from "@/lib/queries/calendar";
import type { EarningsRow } from "@/lib/schemas/calendar";
import { FollowButton } from "@/components/watchlists/follow-button";
import { callHref } from "@/lib/call-links";
import { useReportCalls } from "@/lib/queries/report-calls";
import type { CallListItem } from "@/lib/schemas/calls";
import { CallLink } from "./call-link";
import { EarningsCards } from "./earnings-cards";
import { CalendarFilters } from "./calendar-filters";
import { RANGE_PRESETS, earningsParams, filtersFromParams, urlOptions } from "./calendar-params";
import { CalendarResults } from "./calendar-results";
import { useCalendarData } from "./use-calendar-data";
import { useCalendarSource } from "./use-calendar-source";
import { Actual, Confirmed, Importance, Surprise } from "./figures";
import { ReportTime } from "./report-time";
import { isTruncated, withCalendarError, WatchlistNotice, WatchlistSummary } from "./watchlist-notice";
import { needsNotice } from "./watchlist-filter";

function periodLabel(row: EarningsRow): string {
  if (!row.period) return "—";
  return row.periodYear ? `${row.period} ${row.periodYear}` : row.period;
}

export function earningsColumns(
  timeZone: string,
  calls: ReadonlyMap<string, CallListItem> = new Map(),
): VirtualColumn<EarningsRow>[] {
  const thisYear = String(new Date().getUTCFullYear());
  return [
    {
      id: "date",
      header: "Date",
      width: 112,
      // The year only when it is not this one: "Thu, Nov 19" fits its column, and the range says the year.
      cell: (r) => (
        <span title={formatDate(r.date, { weekday: true })}>
          {formatDate(r.date, { weekday: true, year: r.date.slice(0, 4) !== thisYear })}
        </span>
      ),
    },
    {
      id: "time",
      header: `Time (${timeZoneAbbreviation(timeZone)})`,
      width: 206,
      cell: (r) => <ReportTime date={r.date} time={r.time} timeZone={timeZone} />,
    },
    {
      id: "company",
      header: "Company",
      width: 252,
      cell: (r) => (
        <span className="flex min-w-0 items-baseline gap-1.5">
          <FollowButton symbol={r.ticker} compact className="self-center" />
          <IntentLink
            href={`/companies/${encodeURIComponent(r.ticker)}`}
            className="text-accent w-14 shrink-0 font-mono font-semibold hover:underline"
            onClick={(e) => e.stopPropagation()}
          >
            {r.ticker}
          </IntentLink>
          <span className="truncate" title={r.name}>
            {r.name}
          </span>
        </span>
      ),
    },
    {
      id: "call",
      header: "Call",
      width: 124,
      cell: (r) => <CallLink call={calls.get(r.id)} symbol={r.ticker} />,
    },
    { id: "period", header: "Period", width: 76, cell: periodLabel },
    { id: "epsEst", header: "EPS est.", width: 76, numeric: true, cell: (r) => formatEps(r.epsEst) },
    {
      id: "eps",
      header: "EPS",
      width: 70,
      numeric: true,
      cell: (r) => <Actual text={formatEps(r.eps)} surprise={r.epsSurprisePercent} />,
    },
    {
      id: "epsSurprise",
      header: "EPS surp.",
      width: 92,
      numeric: true,
      cell: (r) => <Surprise percent={r.epsSurprisePercent} />,
    },
    {
      id: "revEst",
      header: "Rev. est.",
      width: 92,
      numeric: true,
      cell: (r) => formatMoney(r.revenueEst, r.currency ?? "USD"),
    },
    {
      id: "rev",
      header: "Revenue",
      width: 92,
      numeric: true,
      cell: (r) => (
        <Actual text={formatMoney(r.revenue, r.currency ?? "USD")} surprise={r.revenueSurprisePercent} />
      ),
    },
    {
      id: "revSurprise",
      header: "Rev. surp.",
      width: 92,
      numeric: true,
      cell: (r) => <Surprise percent={r.revenueSurprisePercent} />,
    },
    { id: "confirmed", header: "Conf.", width: 52, cell: (r) => <Confirmed value={r.isDateConfirmed} /> },
    { id: "importance", header: "Imp.", width: 64, cell: (r) => <Importance value={r.importance} /> },
  ];
}

function timeZoneAbbreviation(timeZone: string): string {
  const part = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "short" })
    .formatToParts(new Date())
    .find((p) => p.type === "timeZoneName");
  return part?.value ?? timeZone;
}

const CSV_COLUMNS = [
  { header: "Date", value: (r: EarningsRow) => r.date },
  { header: "Time (US Eastern)", value: (r: EarningsRow) => r.time },
  {
    header: "Session",
    value: (r: EarningsRow) => (marketSession(r.time) ? SESSION_LABEL[marketSession(r.time)!] : ""),
  },
  { header: "Ticker", value: (r: EarningsRow) => r.ticker },
  { header: "Company", value: (r: EarningsRow) => r.name },
  { header: "Exchange", value: (r: EarningsRow) => r.exchange },
  { header: "Period", value: (r: EarningsRow) => r.period },
  { header: "Fiscal year", value: (r: EarningsRow) => r.periodYear },
  { header: "Currency", value: (r: EarningsRow) => r.currency },
  { header: "EPS estimate", value: (r: EarningsRow) => r.epsEst },
  { header: "EPS actual", value: (r: EarningsRow) => r.eps },
  { header: "EPS surprise %", value: (r: EarningsRow) => r.epsSurprisePercent },
  { header: "Revenue estimate", value: (r: EarningsRow) => r.revenueEst },
  { header: "Revenue actual", value: (r: EarningsRow) => r.revenue },
  { header: "Revenue surprise %", value: (r: EarningsRow) => r.revenueSurprisePercent },
  { header: "Date confirmed", value: (r: EarningsRow) => r.isDateConfirmed },
  { header: "Importance", value: (r: EarningsRow) => r.importance },
];

/** One calendar event per report: timed when the time is known (60 min), all-day otherwise. */
export function earningsToIcs(rows: readonly EarningsRow[], origin: string, now = new Date()): string {
  return toIcs(
    rows.map((r) => {
      const instant = r.time ? easternToDate(r.date, r.time) : null;
      const session = marketSession(r.time);
      const lines = [
        `${r.name} (${r.ticker}) ${periodLabel(r)} earnings`,
        session ? `Time: ${SESSION_LABEL[session]} ${r.time} US Eastern` : "Time: not announced",
        `EPS estimate: ${formatEps(r.epsEst)}`,
        `Revenue estimate: ${formatMoney(r.revenueEst, r.currency ?? "USD")}`,
      ];
      if (r.eps !== null)
        lines.push(`EPS actual: ${formatEps(r.eps)} (${formatPercent(r.epsSurprisePercent)})`);
      if (r.revenue !== null)
        lines.push(
          `Revenue actual: ${formatMoney(r.revenue, r.currency ?? "USD")} (${formatPercent(r.revenueSurprisePercent)})`,
        );
      if (!r.isDateConfirmed) lines.push("Date not confirmed");
      return {
        uid: `earnings-${r.id}@callroom`,
        summary: `${r.ticker} ${periodLabel(r)} earnings${session ? ` (${SESSION_LABEL[session]})` : ""}`,
        description: lines.join("\n"),
        url: `${origin}/companies/${encodeURIComponent(r.ticker)}`,
        start: instant ? { instant } : { date: r.date },
        durationMinutes: 60,
        lastModified: r.updatedAt ? new Date(r.updatedAt) : undefined,
      };
    }),
    { calendarName: "Callroom earnings", now },
  );
}

export function EarningsCalendar() {
  const timeZone = useTimeZone();
  const [params, setParams] = useQueryStates(earningsParams, urlOptions);
  const { range, filters, watchlist } = filtersFromParams(params);
  const { lists, query, fetchUpdated } = useCalendarSource({
    kind: "earnings",
    watchlist,
    filters,
    plainQuery: calendarQueries.earnings(filters),
    fetchPlain: fetchEarnings,
  });
  const calls = useRef<ReadonlyMap<string, CallListItem>>(new Map());
  const state = useCalendarData({
    query,
    fetchUpdated,
    compare: compareEarnings(filters.sort),
    // Enter opens the report's call when there is one (live or over), else the company.
    hrefOf: (row) => {
      const call = calls.current.get(row.id);
      return call ? callHref(call.callId) : `/companies/${encodeURIComponent(row.ticker)}`;
    },
  });
  const { rows } = state;
  const reportCalls = useReportCalls(rows);
  useEffect(() => {
    calls.current = reportCalls;
  }, [reportCalls]);
  const choice = withCalendarError(lists.choice, state.error);
  const notice = needsNotice(choice) ? (
    <WatchlistNotice
      choice={choice}
      what="reports"
      onShowAll={() => void setParams({ watchlist: null, page: 0 })}
      onRetry={lists.retryLists}
    />
  ) : null;
  const columns = useMemo(() => earningsColumns(timeZone, reportCalls), [timeZone, reportCalls]);

  const fileStem = `earnings-${range.from ?? "all"}${range.to && range.to !== range.from ? `_${range.to}` : ""}`;
  const exportActions = (
    <>
      <Button
        disabled={rows.length === 0}
        onClick={() => downloadText(`${fileStem}.csv`, toCsv(rows, CSV_COLUMNS), "text/csv;charset=utf-8")}
      >
        Export CSV
      </Button>
      <Button
        disabled={rows.length === 0}
        onClick={() =>
          downloadText(
            `${fileStem}.ics`,
            earningsToIcs(rows, window.location.origin),
            "text/calendar;charset=utf-8",
          )
        }
      >
        Export .ics
      </Button>
    </>
  );

  return (
    <div className="flex flex-col gap-3">
      <CalendarFilters
        values={{ ...params, pageSize: filters.pageSize }}
        onChange={(patch) => void setParams(patch as Parameters<typeof setParams>[0])}
        watchlistOptions={lists.options}
        rangeOptions={RANGE_PRESETS}
        sortOptions={[
          { value: "date:asc", label: "Date, earliest first" },
          { value: "date:desc", label: "Date, latest first" },
        ]}
        actions={exportActions}
      />
      <CalendarResults
        state={state}
        columns={columns}
        timeZone={timeZone}
        summary={
          <>
            {range.from ? (
              <>
                {formatDate(range.from, { weekday: true })}
                {range.to && range.to !== range.from ? ` – ${formatDate(range.to, { weekday: true })}` : ""}
              </>
            ) : (
              "All dates"
            )}
            {" · "}times in {timeZone}, exchange time on hover
            <WatchlistSummary choice={choice} isTruncated={isTruncated(state.data)} />
          </>
        }
        notice={notice}
        labels={{
          what: "earnings calendar",
          loading: "Loading earnings",
          error: "Could not load the earnings calendar.",
          empty: "No earnings reports match these filters.",
          emptyHint: watchlist
            ? "None of this watchlist's companies reports in these dates: try a wider date range or a lower importance."
            : filters.tickers.length || filters.importance
              ? "Try fewer tickers, a lower importance, or a wider date range."
              : "Try a wider date range, such as next week or a custom range.",
          caption: "Earnings calendar",
        }}
        page={filters.page}
        pageSize={filters.pageSize}
        onPage={(page) => void setParams({ page })}
        testId="earnings-table"
        rowTestId="earnings-row"
        cards={
          <EarningsCards
            rows={rows}
            calls={reportCalls}
            timeZone={timeZone}
            activeIndex={state.activeIndex}
          />
        }
      />
    </div>
  );
}
