"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { IntentLink } from "@/components/ui/intent-link";
import { useRouter } from "next/navigation";
import { useQueryStates } from "nuqs";
import { useMemo, useState } from "react";
import { useRowNavigation } from "@/components/shell/use-row-navigation";
import { Button } from "@/components/ui/button";
import { Field, Input, Select } from "@/components/ui/field";
import { EmptyState, ErrorState, StaleNote } from "@/components/ui/panel-state";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, Td, Th, Tr } from "@/components/ui/table";
import { LocalTime } from "@/components/ui/local-time";
import { followedFirstByStatus, useFollowedTickers } from "@/components/watchlists/use-followed-first";
import { formatCount } from "@/lib/format";
import { callQueries, summaryByCallId } from "@/lib/queries/calls";
import type { CallListItem, CallSummary } from "@/lib/schemas/calls";
import { formatClock } from "./call-format";
import { CallStatusBadge } from "./call-status-badge";
import {
  CALLS_PAGE_SIZE,
  callListFilters,
  callsParams,
  callsUrlOptions,
  parseTickerInput,
  summaryFilters,
  summarySpan,
} from "./calls-params";

/**
 * Calls, live first then newest (the followed companies' first within each), with filters in the URL and the first
 * points of each enriched call's summary.
 * Summaries come from one `/api/summaries` request covering the page's time span (not one request per row).
 */
export function CallsBrowser() {
  const router = useRouter();
  const [params, setParams] = useQueryStates(callsParams, callsUrlOptions);
  const filters = callListFilters(params);
  const tickers = useMemo(() => parseTickerInput(params.tickers), [params.tickers]);
  const list = useQuery({ ...callQueries.list(filters), placeholderData: keepPreviousData });
  const followed = useFollowedTickers();
  const rows = useMemo(() => followedFirstByStatus(list.data?.data ?? [], followed), [list.data, followed]);

  const span = summarySpan(rows);
  const summaries = useQuery({
    ...callQueries.summaries(summaryFilters(tickers, span)),
    enabled: span !== null,
  });
  const summaryMap = useMemo(() => summaryByCallId(summaries.data?.data ?? []), [summaries.data]);

  const { activeIndex } = useRowNavigation(rows.length, {
    onOpen: (i) => {
      const row = rows[i];
      if (row) router.push(`/calls/${row.callId}`);
    },
  });

  const total = list.data?.meta.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / CALLS_PAGE_SIZE));

  return (
    <div className="flex flex-col gap-3">
      <CallsFilters
        key={tickers.join(",")}
        tickers={tickers}
        from={params.from}
        to={params.to}
        status={params.status}
        onChange={(next) => void setParams({ ...next, page: 0 })}
        onReset={() => void setParams({ tickers: [], from: null, to: null, status: "all", page: 0 })}
      />
      {list.data?.meta.stale ? <StaleNote fetchedAt={list.data.meta.fetchedAt} /> : null}
      {list.isPending ? (
        <CallsTableSkeleton />
      ) : list.isError ? (
        <ErrorState
          title="Could not load calls"
          message={list.error.message}
          onRetry={() => void list.refetch()}
        />
      ) : rows.length === 0 ? (
        <EmptyState
          title="No calls match these filters"
          hint="Try another ticker, a wider date range, or status “All”."
        />
      ) : (
        <div className="border-line overflow-x-auto rounded border" aria-busy={list.isFetching}>
          <Table aria-label="Conference calls" data-testid="calls-table">
            <thead>
              <tr>
                <Th className="w-44">Start</Th>
                <Th className="w-20">Symbol</Th>
                <Th>Call</Th>
                <Th className="w-24">Status</Th>
                <Th numeric className="w-20">
                  Duration
                </Th>
                <Th className="min-w-72">Summary</Th>
              </tr>
            </thead>
            <tbody>
              {rows.map((call, i) => (
                <CallRow
                  key={call.callId}
                  call={call}
                  summary={summaryMap.get(call.callId)}
                  isActive={i === activeIndex}
                />
              ))}
            </tbody>
          </Table>
        </div>
      )}
      {list.data && total > 0 ? (
        <nav aria-label="Pages" className="flex items-center gap-2 text-[13px]">
          <Button onClick={() => void setParams({ page: filters.page - 1 })} disabled={filters.page === 0}>
            ← Previous
          </Button>
          <span className="text-muted tabular-nums" aria-live="polite">
            Page {filters.page + 1} of {pageCount} · {formatCount(total, "call")}
          </span>
          <Button
            onClick={() => void setParams({ page: filters.page + 1 })}
            disabled={!list.data.meta.hasMore}
          >
            Next →
          </Button>
        </nav>
      ) : null}
    </div>
  );
}

function CallRow({
  call,
  summary,
  isActive,
}: {
  call: CallListItem;
  summary: CallSummary | undefined;
  isActive: boolean;
}) {
  const points = summary?.points.slice(0, 2) ?? [];
  return (
    <Tr data-active={isActive || undefined} data-testid="call-row" className="align-top">
      <Td className="tabular-nums">
        <LocalTime value={call.startTime} />
      </Td>
      <Td className="font-semibold">{call.symbol}</Td>
      <Td className="max-w-96 truncate">
        <IntentLink
          href={`/calls/${call.callId}`}
          className="hover:underline"
          title={call.headline ? `${call.title}: ${call.headline}` : call.title}
        >
          {call.title}
        </IntentLink>
      </Td>
      <Td>
        <CallStatusBadge status={call.status} />
      </Td>
      <Td numeric>{call.status === "live" ? "—" : formatClock(call.durationSeconds)}</Td>
      <Td className="text-muted py-1 whitespace-normal">
        {points.length > 0 ? (
          <ul className="line-clamp-2 text-xs leading-4">
            {points.map((p, i) => (
              <li key={i}>· {p}</li>
            ))}
          </ul>
        ) : (
          <span className="text-xs">
            {call.status === "live"
              ? "In progress"
              : call.status === "completed"
                ? "Summary in preparation"
                : "—"}
          </span>
        )}
      </Td>
    </Tr>
  );
}

function CallsFilters({
  tickers,
  from,
  to,
  status,
  onChange,
  onReset,
}: {
  tickers: readonly string[];
  from: string | null;
  to: string | null;
  status: (typeof callsParams.status)["defaultValue"];
  onChange: (next: {
    tickers?: string[];
    from?: string | null;
    to?: string | null;
    status?: "all" | "live" | "completed";
  }) => void;
  onReset: () => void;
}) {
  const [tickerText, setTickerText] = useState(tickers.join(", "));
  const commitTickers = () => {
    const next = parseTickerInput(tickerText);
    if (next.join(",") !== tickers.join(",")) onChange({ tickers: next });
  };
  return (
    <form
      className="flex flex-wrap items-end gap-2"
      aria-label="Filter calls"
      onSubmit={(e) => {
        e.preventDefault();
        commitTickers();
      }}
    >
      <Field label="Tickers" htmlFor="calls-tickers">
        <Input
          id="calls-tickers"
          className="w-48"
          placeholder="e.g. AAPL, MSFT"
          value={tickerText}
          onChange={(e) => setTickerText(e.currentTarget.value)}
          onBlur={commitTickers}
        />
      </Field>
      <Field label="From (UTC)" htmlFor="calls-from">
        <Input
          id="calls-from"
          type="date"
          value={from ?? ""}
          onChange={(e) => onChange({ from: e.currentTarget.value || null })}
        />
      </Field>
      <Field label="To (UTC)" htmlFor="calls-to">
        <Input
          id="calls-to"
          type="date"
          value={to ?? ""}
          onChange={(e) => onChange({ to: e.currentTarget.value || null })}
        />
      </Field>
      <Field label="Status" htmlFor="calls-status">
        <Select
          id="calls-status"
          value={status}
          onChange={(e) => onChange({ status: e.currentTarget.value as "all" | "live" | "completed" })}
        >
          <option value="all">All</option>
          <option value="live">Live</option>
          <option value="completed">Completed</option>
        </Select>
      </Field>
      <Button type="submit" className="sr-only focus:not-sr-only">
        Apply
      </Button>
      <Button variant="ghost" onClick={onReset}>
        Clear filters
      </Button>
    </form>
  );
}

function CallsTableSkeleton() {
  return (
    <div
      className="border-line overflow-hidden rounded border"
      role="status"
      aria-label="Loading calls"
      aria-busy
    >
      <div className="bg-surface border-line h-8 border-b" />
      {Array.from({ length: 10 }, (_, i) => (
        <div key={i} className="border-line flex h-[38px] items-center gap-4 border-b px-2">
          <Skeleton className="h-2.5 w-36" />
          <Skeleton className="h-2.5 w-12" />
          <Skeleton className="h-2.5 w-72" />
          <Skeleton className="h-2.5 w-14" />
          <Skeleton className="h-2.5 flex-1" />
        </div>
      ))}
    </div>
  );
}
