"use client";

import { useQueryStates } from "nuqs";
import { useMemo } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import type { VirtualColumn } from "@/components/ui/virtual-table";
import { toCsv } from "@/lib/export/csv";
import { downloadText } from "@/lib/export/download";
import { MISSING, formatDate, formatMoney } from "@/lib/format";
import { calendarQueries, compareMa, fetchMa } from "@/lib/queries/calendar";
import type { MaRow } from "@/lib/schemas/calendar";
import { CalendarFilters } from "./calendar-filters";
import { DealParties } from "./deal-parties";
import { maParams, filtersFromParams, urlOptions } from "./calendar-params";
import { CalendarResults } from "./calendar-results";
import { useCalendarData } from "./use-calendar-data";
import { useCalendarSource } from "./use-calendar-source";
import { useTimeZone } from "@/components/ui/use-time-zone";
import { Importance } from "./figures";
import { isTruncated, withCalendarError, WatchlistNotice, WatchlistSummary } from "./watchlist-notice";
import { needsNotice } from "./watchlist-filter";

/** Status colours carry meaning: done (positive), dead (negative), pending (warning); the word is always shown. */
const STATUS_TONE: Record<string, BadgeTone> = {
  Completed: "pos",
  Canceled: "neg",
  "Regulatory Review": "warn",
  Announced: "accent",
  Rumored: "neutral",
};

export function maColumns(): VirtualColumn<MaRow>[] {
  return [
    { id: "announced", header: "Announced", width: 112, cell: (r) => formatDate(r.announcedDate) },
    {
      id: "deal",
      header: "Acquirer → target",
      width: 480,
      cell: (r) => <DealParties deal={r} follow />,
    },
    {
      id: "size",
      header: "Deal size",
      width: 96,
      numeric: true,
      cell: (r) =>
        r.dealSize === null ? (
          <span className="text-muted">{MISSING}</span>
        ) : (
          formatMoney(r.dealSize, r.currency ?? "USD")
        ),
    },
    {
      id: "status",
      header: "Status",
      width: 138,
      cell: (r) =>
        r.dealStatus ? <Badge tone={STATUS_TONE[r.dealStatus] ?? "neutral"}>{r.dealStatus}</Badge> : MISSING,
    },
    {
      id: "type",
      header: "Type",
      width: 100,
      cell: (r) => (r.dealType ? <Badge>{r.dealType}</Badge> : MISSING),
    },
    {
      id: "payment",
      header: "Payment",
      width: 108,
      cell: (r) =>
        r.dealPaymentType ? (
          <Badge>{r.dealPaymentType}</Badge>
        ) : (
          <span className="text-muted">Undisclosed</span>
        ),
    },
    { id: "expected", header: "Expected", width: 104, cell: (r) => formatDate(r.expectedDate) },
    { id: "completed", header: "Completed", width: 104, cell: (r) => formatDate(r.completedDate) },
    { id: "importance", header: "Imp.", width: 64, cell: (r) => <Importance value={r.importance} /> },
  ];
}

const CSV_COLUMNS = [
  { header: "Announced", value: (r: MaRow) => r.announcedDate },
  { header: "Expected", value: (r: MaRow) => r.expectedDate },
  { header: "Completed", value: (r: MaRow) => r.completedDate },
  { header: "Acquirer ticker", value: (r: MaRow) => r.acquirer.ticker },
  { header: "Acquirer", value: (r: MaRow) => r.acquirer.name },
  { header: "Target ticker", value: (r: MaRow) => r.target.ticker ?? "Private" },
  { header: "Target", value: (r: MaRow) => r.target.name },
  { header: "Deal type", value: (r: MaRow) => r.dealType },
  { header: "Deal status", value: (r: MaRow) => r.dealStatus },
  { header: "Payment", value: (r: MaRow) => r.dealPaymentType },
  { header: "Currency", value: (r: MaRow) => r.currency },
  { header: "Deal size", value: (r: MaRow) => r.dealSize },
  { header: "Terms", value: (r: MaRow) => r.dealTermsExtra },
  { header: "Importance", value: (r: MaRow) => r.importance },
];

export function MaCalendar() {
  const timeZone = useTimeZone();
  const [params, setParams] = useQueryStates(maParams, urlOptions);
  const { range, filters, watchlist } = filtersFromParams(params);
  // As on the earnings calendar: a watchlist's deals are those whose acquirer or target it holds.
  const { lists, query, fetchUpdated } = useCalendarSource({
    kind: "ma",
    watchlist,
    filters,
    plainQuery: calendarQueries.ma(filters),
    fetchPlain: fetchMa,
  });
  const state = useCalendarData({
    query,
    fetchUpdated,
    compare: compareMa(filters.sort),
    hrefOf: (row) => {
      const ticker = row.acquirer.ticker ?? row.target.ticker;
      return ticker ? `/companies/${encodeURIComponent(ticker)}` : null;
    },
  });
  const { rows } = state;
  const columns = useMemo(() => maColumns(), []);
  const choice = withCalendarError(lists.choice, state.error);
  const notice = needsNotice(choice) ? (
    <WatchlistNotice
      choice={choice}
      what="deals"
      onShowAll={() => void setParams({ watchlist: null, page: 0 })}
      onRetry={lists.retryLists}
    />
  ) : null;

  return (
    <div className="flex flex-col gap-3">
      <CalendarFilters
        values={{ ...params, pageSize: filters.pageSize }}
        onChange={(patch) => void setParams(patch as Parameters<typeof setParams>[0])}
        watchlistOptions={lists.options}
        rangeOptions={[
          "last-30-days",
          "last-week",
          "yesterday",
          "today",
          "this-week",
          "next-week",
          "custom",
          "all",
        ]}
        sortOptions={[
          { value: "announced", label: "Announced, newest first" },
          { value: "expected", label: "Expected, latest first" },
          { value: "completed", label: "Completed, latest first" },
        ]}
        actions={
          <Button
            disabled={rows.length === 0}
            onClick={() =>
              downloadText(
                `ma-${range.from ?? "all"}.csv`,
                toCsv(rows, CSV_COLUMNS),
                "text/csv;charset=utf-8",
              )
            }
          >
            Export CSV
          </Button>
        }
      />
      <CalendarResults
        state={state}
        columns={columns}
        timeZone={timeZone}
        summary={
          <>
            {range.from
              ? `Announced ${formatDate(range.from)}${range.to && range.to !== range.from ? ` – ${formatDate(range.to)}` : ""}`
              : "All announcement dates"}
            {params.sort !== "announced" ? " · deals without that date are left out" : ""}
            <WatchlistSummary choice={choice} isTruncated={isTruncated(state.data)} />
          </>
        }
        notice={notice}
        labels={{
          what: "M&A calendar",
          loading: "Loading M&A deals",
          error: "Could not load the M&A calendar.",
          empty: "No deals match these filters.",
          emptyHint: watchlist
            ? "None of this watchlist's companies is acquirer or target of a deal in these dates: try all dates or a lower importance."
            : "Try all dates, fewer tickers or a lower importance.",
          caption: "M&A calendar",
        }}
        page={filters.page}
        pageSize={filters.pageSize}
        onPage={(page) => void setParams({ page })}
        testId="ma-table"
        rowTestId="ma-row"
      />
    </div>
  );
}
