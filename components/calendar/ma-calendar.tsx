"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useQueryStates } from "nuqs";
import { useMemo } from "react";
import { useRowNavigation } from "@/components/shell/use-row-navigation";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState, ErrorState, StaleNote } from "@/components/ui/panel-state";
import { VirtualTable, VirtualTableSkeleton, type VirtualColumn } from "@/components/ui/virtual-table";
import { toCsv } from "@/lib/export/csv";
import { downloadText } from "@/lib/export/download";
import { MISSING, formatDate, formatDateTime, formatMoney } from "@/lib/format";
import { calendarQueries, compareMa, fetchMa, type MaFilters } from "@/lib/queries/calendar";
import type { DealParty, MaRow } from "@/lib/schemas/calendar";
import { CalendarFilters } from "./calendar-filters";
import { CalendarPager } from "./calendar-pager";
import {
  clampImportance,
  clampPageSize,
  cleanTickers,
  maParams,
  resolveRange,
  urlOptions,
} from "./calendar-params";
import { useTimeZone } from "./use-time-zone";
import { Importance } from "./figures";
import { useCalendarRefresh } from "./use-calendar-refresh";

/** Status colours carry meaning: done (positive), dead (negative), pending (warning); the word is always shown. */
const STATUS_TONE: Record<string, BadgeTone> = {
  Completed: "pos",
  Canceled: "neg",
  "Regulatory Review": "warn",
  Announced: "accent",
  Rumored: "neutral",
};

export function Party({ party }: { party: DealParty }) {
  const name = party.name ?? MISSING;
  if (!party.ticker) {
    return (
      <span className="flex min-w-0 items-baseline gap-1.5">
        <span className="text-2xs text-muted shrink-0">Private</span>
        <span className="truncate" title={name}>
          {name}
        </span>
      </span>
    );
  }
  return (
    <span className="flex min-w-0 items-baseline gap-1.5">
      <Link
        href={`/companies/${encodeURIComponent(party.ticker)}`}
        className="text-accent shrink-0 font-mono font-semibold hover:underline"
        onClick={(e) => e.stopPropagation()}
      >
        {party.ticker}
      </Link>
      <span className="truncate" title={name}>
        {name}
      </span>
    </span>
  );
}

function maColumns(): VirtualColumn<MaRow>[] {
  return [
    { id: "announced", header: "Announced", width: 112, cell: (r) => formatDate(r.announcedDate) },
    {
      id: "deal",
      header: "Acquirer → target",
      width: 440,
      cell: (r) => (
        <span className="grid grid-cols-[1fr_auto_1fr] items-baseline gap-2">
          <Party party={r.acquirer} />
          <span className="text-muted">
            <span aria-hidden>→</span>
            <span className="sr-only">acquires</span>
          </span>
          <Party party={r.target} />
        </span>
      ),
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
  const router = useRouter();
  const timeZone = useTimeZone();
  const [params, setParams] = useQueryStates(maParams, urlOptions);
  const range = resolveRange(params);
  const filters: MaFilters = {
    from: range.from,
    to: range.to,
    tickers: cleanTickers(params.tickers),
    importance: clampImportance(params.importance),
    sort: params.sort,
    page: Math.max(0, params.page),
    pageSize: clampPageSize(params.pageSize),
  };
  const query = calendarQueries.ma(filters);
  const { data, error, isPending, isFetching, isPlaceholderData, refetch } = useQuery({
    ...query,
    placeholderData: keepPreviousData,
  });
  const rows = useMemo(() => data?.data ?? [], [data]);
  const { lastError } = useCalendarRefresh({
    queryKey: query.queryKey,
    fetchUpdated: (since, signal) => fetchMa({ ...filters, page: 0, pageSize: 1000 }, signal, since),
    compare: compareMa(filters.sort),
    enabled: Boolean(data) && !isPlaceholderData,
  });
  const columns = useMemo(() => maColumns(), []);
  const openRow = (index: number) => {
    const ticker = rows[index]?.acquirer.ticker ?? rows[index]?.target.ticker;
    if (ticker) router.push(`/companies/${encodeURIComponent(ticker)}`);
  };
  const { activeIndex, setActiveIndex } = useRowNavigation(rows.length, { onOpen: openRow });

  return (
    <div className="flex flex-col gap-3">
      <CalendarFilters
        values={{ ...params, pageSize: filters.pageSize }}
        onChange={(patch) => void setParams(patch as Parameters<typeof setParams>[0])}
        rangeOptions={["all", "today", "this-week", "next-week", "custom"]}
        sortOptions={[
          { value: "announced", label: "Announced, oldest first" },
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
      <div className="text-2xs text-muted flex min-h-6 flex-wrap items-center justify-between gap-2">
        <p>
          {range.from
            ? `Announced ${formatDate(range.from)}${range.to && range.to !== range.from ? ` – ${formatDate(range.to)}` : ""}`
            : "All announcement dates"}
          {params.sort !== "announced" ? " · deals without that date are left out" : ""}
        </p>
        <p aria-live="polite">
          {isFetching
            ? "Updating…"
            : data
              ? `Updated ${formatDateTime(data.meta.fetchedAt, timeZone)} · refreshes every 60 s`
              : ""}
          {lastError ? ` · last refresh failed at ${formatDateTime(lastError, timeZone)}` : ""}
        </p>
      </div>
      {data?.meta.stale ? <StaleNote since={formatDateTime(data.meta.fetchedAt, timeZone)} /> : null}
      {isPending ? (
        <VirtualTableSkeleton columns={columns} label="Loading M&A deals" />
      ) : error && !data ? (
        <ErrorState
          className="border-line rounded border"
          title="Could not load the M&A calendar."
          message={error.message}
          onRetry={() => void refetch()}
        />
      ) : rows.length === 0 ? (
        <EmptyState
          className="border-line rounded border"
          title="No deals match these filters."
          hint="Try all dates, fewer tickers or a lower importance."
        />
      ) : (
        <VirtualTable
          rows={rows}
          columns={columns}
          rowKey={(r) => r.id}
          caption="M&A calendar"
          activeIndex={activeIndex}
          onRowClick={setActiveIndex}
          className="max-h-[min(72dvh,900px)]"
          testId="ma-table"
          rowTestId="ma-row"
        />
      )}
      {data ? (
        <CalendarPager
          page={filters.page}
          pageSize={filters.pageSize}
          rowCount={rows.length}
          hasMore={data.meta.hasMore}
          onPage={(page) => void setParams({ page })}
        />
      ) : null}
    </div>
  );
}
