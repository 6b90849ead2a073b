"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { IntentLink } from "@/components/ui/intent-link";
import { useRouter } from "next/navigation";
import { useQueryStates } from "nuqs";
import { useMemo, useState, type ReactNode } from "react";
import { useRowNavigation } from "@/components/shell/use-row-navigation";
import { Button } from "@/components/ui/button";
import { Field, Input, Select } from "@/components/ui/field";
import { EmptyState, ErrorState, StaleNote } from "@/components/ui/panel-state";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, Td, Th, Tr } from "@/components/ui/table";
import { LocalTime } from "@/components/ui/local-time";
import { FollowButton } from "@/components/watchlists/follow-button";
import {
  useFollowedCalls,
  useFollowedTickers,
  type FollowedCalls,
} from "@/components/watchlists/use-followed-first";
import { formatCount } from "@/lib/format";
import { callQueries, isImportedCall, summaryByCallId } from "@/lib/queries/calls";
import type { CallListItem, CallSummary } from "@/lib/schemas/calls";
import { formatClock } from "./call-format";
import { CallStatusBadge } from "./call-status-badge";
import {
  CALLS_PAGE_SIZE,
  FOLLOWED_TICKERS_PER_REQUEST,
  callListFilters,
  followedSummaryFilters,
  showsFollowedSection,
  callsParams,
  callsUrlOptions,
  parseTickerInput,
  summaryFilters,
  summarySpan,
} from "./calls-params";

/**
 * Calls, live first then newest, with filters in the URL and the first points of each enriched call's summary. On
 * the first page, "Your companies" lists the followed companies' calls under the same filters, whichever page of the
 * general list they fall on (docs/workspace.md); every row has the compact follow star.
 * Summaries come from one `/api/summaries` request per list covering its time span (not one request per row).
 */
export function CallsBrowser() {
  const router = useRouter();
  const [params, setParams] = useQueryStates(callsParams, callsUrlOptions);
  const filters = callListFilters(params);
  const tickers = useMemo(() => parseTickerInput(params.tickers), [params.tickers]);
  const list = useQuery({ ...callQueries.list(filters), placeholderData: keepPreviousData });
  const followed = useFollowedTickers();
  const mine = useFollowedCalls(filters, followed, showsFollowedSection(filters, followed));
  // Each call once: a followed call the "Your companies" section shows is not repeated below it (the page keeps its
  // place in the server's paging; it just shows the calls the section does not).
  const rows = useMemo(() => {
    const all = list.data?.data ?? [];
    if (mine.calls.length === 0) return all;
    const shown = new Set(mine.calls.map((c) => c.callId));
    return all.filter((c) => !shown.has(c.callId));
  }, [list.data, mine.calls]);

  const span = summarySpan(rows);
  const summaries = useQuery({
    ...callQueries.summaries(summaryFilters(tickers, span)),
    enabled: span !== null,
  });
  const mineSpan = summarySpan(mine.calls);
  const mineSummaries = useQuery({
    ...callQueries.summaries(followedSummaryFilters(mine.tickers, mineSpan)),
    enabled: mineSpan !== null,
  });
  const summaryMap = useMemo(
    () => summaryByCallId([...(mineSummaries.data?.data ?? []), ...(summaries.data?.data ?? [])]),
    [summaries.data, mineSummaries.data],
  );

  const navigable = [...mine.calls, ...rows];
  const { activeIndex } = useRowNavigation(navigable.length, {
    onOpen: (i) => {
      const row = navigable[i];
      if (row) router.push(`/calls/${row.callId}`);
    },
  });
  const mineCount = mine.calls.length;

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
        source={params.source}
        onChange={(next) => void setParams({ ...next, page: 0 })}
        onReset={() =>
          void setParams({ tickers: [], from: null, to: null, status: "all", source: "market", page: 0 })
        }
      />
      {list.data?.meta.stale ? <StaleNote fetchedAt={list.data.meta.fetchedAt} /> : null}
      {mine.tickers.length > 0 ? (
        <FollowedSection
          mine={mine}
          summaryMap={summaryMap}
          activeIndex={activeIndex}
          onShowAll={
            mine.tickers.length <= FOLLOWED_TICKERS_PER_REQUEST
              ? () => void setParams({ tickers: mine.tickers, page: 0 })
              : undefined
          }
        />
      ) : null}
      {list.isPending ? (
        <CallsTableSkeleton />
      ) : list.isError ? (
        <ErrorState
          title="Could not load calls"
          message={list.error.message}
          onRetry={() => void list.refetch()}
        />
      ) : rows.length === 0 && mine.calls.length > 0 ? (
        <p className="text-2xs text-muted">Every call on this page is one of your companies’, above.</p>
      ) : rows.length === 0 ? (
        params.source === "imported" ? (
          <EmptyState
            title="No imported transcript matches these filters"
            hint="Bring transcripts in with `npm run import -- <file-or-folder>` (see the README), or widen the filters."
          />
        ) : (
          <EmptyState
            title="No calls match these filters"
            hint="Try another ticker, a wider date range, or status “All”."
          />
        )
      ) : (
        <section aria-labelledby={mine.tickers.length > 0 ? "all-calls-heading" : undefined}>
          {mine.tickers.length > 0 ? (
            <h2
              id="all-calls-heading"
              className="text-2xs text-muted mb-1 font-semibold tracking-wide uppercase"
            >
              All calls
            </h2>
          ) : null}
          <CallsTable label="Conference calls" testId="calls-table" isBusy={list.isFetching}>
            {rows.map((call, i) => (
              <CallRow
                key={call.callId}
                call={call}
                summary={summaryMap.get(call.callId)}
                isActive={mineCount + i === activeIndex}
              />
            ))}
          </CallsTable>
        </section>
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

function CallsTable({
  label,
  testId,
  isBusy,
  children,
}: {
  label: string;
  testId: string;
  isBusy: boolean;
  children: ReactNode;
}) {
  return (
    <div className="border-line overflow-x-auto rounded border" aria-busy={isBusy}>
      <Table aria-label={label} data-testid={testId}>
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
        <tbody>{children}</tbody>
      </Table>
    </div>
  );
}

/**
 * The followed companies' calls under the current filters, across every page of the list: the first few, live first
 * then newest, and how many there are in all (one click filters the list to them).
 */
function FollowedSection({
  mine,
  summaryMap,
  activeIndex,
  onShowAll,
}: {
  mine: FollowedCalls;
  summaryMap: Map<string, CallSummary>;
  activeIndex: number;
  onShowAll: (() => void) | undefined;
}) {
  const more = mine.total - mine.calls.length;
  return (
    <section
      aria-labelledby="followed-calls-heading"
      data-testid="followed-calls"
      className="flex flex-col gap-1"
    >
      <div className="flex flex-wrap items-baseline gap-x-3">
        <h2 id="followed-calls-heading" className="text-2xs text-muted font-semibold tracking-wide uppercase">
          Your companies
        </h2>
        {!mine.isPending && mine.total > 0 ? (
          <span className="text-2xs text-muted tabular-nums">
            {formatCount(mine.total, "call")}
            {mine.omitted > 0 ? ` (first ${mine.tickers.length - mine.omitted} followed tickers)` : ""}
          </span>
        ) : null}
        {more > 0 && onShowAll ? (
          <Button variant="ghost" className="h-6 px-1.5 text-xs" onClick={onShowAll}>
            Show all {formatCount(mine.total, "call")}
          </Button>
        ) : null}
      </div>
      {mine.isPending ? (
        <div role="status" aria-label="Loading your companies' calls" className="flex flex-col gap-1.5 py-1">
          <Skeleton className="h-3 w-full" />
          <Skeleton className="h-3 w-5/6" />
        </div>
      ) : mine.isError && mine.calls.length === 0 ? (
        <ErrorState
          title="Could not load your companies' calls"
          message="The calls list below is complete; try again for this section."
          onRetry={mine.refetch}
        />
      ) : mine.calls.length === 0 ? (
        <p className="text-muted text-[13px]" data-testid="followed-calls-empty">
          None of the companies you follow has a call matching these filters.
        </p>
      ) : (
        <CallsTable label="Your companies' calls" testId="followed-calls-table" isBusy={false}>
          {mine.calls.map((call, i) => (
            <CallRow
              key={call.callId}
              call={call}
              summary={summaryMap.get(call.callId)}
              isActive={i === activeIndex}
            />
          ))}
        </CallsTable>
      )}
    </section>
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
      <Td className="py-0 font-semibold whitespace-nowrap">
        <span className="inline-flex items-center gap-0.5">
          {call.symbol}
          <FollowButton symbol={call.symbol} compact />
        </span>
      </Td>
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
              : isImportedCall(call.callId)
                ? "Imported transcript (no summary)"
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
  source,
  onChange,
  onReset,
}: {
  tickers: readonly string[];
  from: string | null;
  to: string | null;
  status: (typeof callsParams.status)["defaultValue"];
  source: (typeof callsParams.source)["defaultValue"];
  onChange: (next: {
    tickers?: string[];
    from?: string | null;
    to?: string | null;
    status?: "all" | "live" | "completed";
    source?: "market" | "imported";
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
          <option value="completed">Ended (with summary ready)</option>
        </Select>
      </Field>
      <Field label="Source" htmlFor="calls-source">
        <Select
          id="calls-source"
          value={source}
          onChange={(e) => onChange({ source: e.currentTarget.value as "market" | "imported" })}
        >
          <option value="market">Market data</option>
          <option value="imported">Imported transcripts</option>
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
