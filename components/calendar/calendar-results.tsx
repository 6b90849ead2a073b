"use client";

import type { ReactNode } from "react";
import { EmptyState, ErrorState, StaleNote } from "@/components/ui/panel-state";
import { VirtualTable, VirtualTableSkeleton, type VirtualColumn } from "@/components/ui/virtual-table";
import { cn } from "@/components/ui/cn";
import { formatDateTime } from "@/lib/format";
import { CalendarPager } from "./calendar-pager";
import type { CalendarData } from "./use-calendar-data";

/**
 * Everything under a calendar's filters: what is shown and when it was updated, the stale note, the four states
 * of the table (loading skeleton, error with retry, empty with a hint, rows), and the pager.
 */
export function CalendarResults<Row extends { id: string }>({
  state,
  columns,
  timeZone,
  summary,
  labels,
  page,
  pageSize,
  onPage,
  testId,
  rowTestId,
  notice,
  cards,
}: {
  state: CalendarData<Row>;
  columns: VirtualColumn<Row>[];
  timeZone: string;
  /** The left half of the status line: which dates, which zone. */
  summary: ReactNode;
  labels: { what: string; loading: string; error: string; empty: string; emptyHint: string; caption: string };
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  testId: string;
  rowTestId: string;
  /** Shown instead of the rows and the pager: why there are none to ask for (a missing or empty watchlist). */
  notice?: ReactNode;
  /** The rows as cards for narrow screens (below md), where the table would need scrolling sideways. */
  cards?: ReactNode;
}) {
  const { data, error, isPending, isFetching, refetch, rows, lastError, activeIndex, setActiveIndex } = state;
  return (
    <>
      <div className="text-2xs text-muted flex min-h-6 flex-wrap items-center justify-between gap-2">
        <p>{summary}</p>
        <p aria-live="polite">
          {isFetching
            ? "Updating…"
            : data
              ? `Updated ${formatDateTime(data.meta.fetchedAt, timeZone)} · refreshes every 60 s`
              : ""}
          {lastError ? ` · last refresh failed at ${formatDateTime(lastError, timeZone)}` : ""}
        </p>
      </div>
      {data?.meta.stale ? (
        <StaleNote fetchedAt={data.meta.fetchedAt} timeZone={timeZone} what={labels.what} />
      ) : null}
      {notice ? (
        notice
      ) : isPending ? (
        <VirtualTableSkeleton columns={columns} label={labels.loading} />
      ) : error && !data ? (
        <ErrorState
          className="border-line rounded border"
          title={labels.error}
          message={error.message}
          onRetry={() => void refetch()}
        />
      ) : rows.length === 0 ? (
        <EmptyState className="border-line rounded border" title={labels.empty} hint={labels.emptyHint} />
      ) : (
        <>
          <VirtualTable
            rows={rows}
            columns={columns}
            rowKey={(r) => r.id}
            caption={labels.caption}
            activeIndex={activeIndex}
            onRowClick={setActiveIndex}
            className={cn("max-h-[min(72dvh,900px)]", cards ? "max-md:hidden" : undefined)}
            testId={testId}
            rowTestId={rowTestId}
          />
          {cards ? <div className="md:hidden">{cards}</div> : null}
        </>
      )}
      {data && !notice ? (
        <CalendarPager
          page={page}
          pageSize={pageSize}
          rowCount={rows.length}
          hasMore={data.meta.hasMore}
          onPage={onPage}
        />
      ) : null}
    </>
  );
}
