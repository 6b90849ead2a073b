"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useQueryStates } from "nuqs";
import { useState } from "react";
import { CallStatusBadge } from "@/components/calls/call-status-badge";
import { formatClock, speakerLabel } from "@/components/calls/call-format";
import { useRowNavigation } from "@/components/shell/use-row-navigation";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Field, Input, Select } from "@/components/ui/field";
import { IntentLink } from "@/components/ui/intent-link";
import { LocalTime } from "@/components/ui/local-time";
import { EmptyState, ErrorState } from "@/components/ui/panel-state";
import { Skeleton } from "@/components/ui/skeleton";
import { FollowButton } from "@/components/watchlists/follow-button";
import { callHref, callMomentHref, callTimeHref } from "@/lib/call-links";
import { formatCount } from "@/lib/format";
import { isApiError } from "@/lib/queries/fetch-json";
import { searchQueries } from "@/lib/queries/search";
import type { Facet, SearchAnswer, SearchCall, SearchNote } from "@/lib/schemas/search";
import { HighlightedText } from "./highlighted-text";
import { parseTickers, quarterLabel, searchFilters, searchParams, searchUrlOptions } from "./search-params";

type Params = ReturnType<typeof useQueryStates<typeof searchParams>>[0];
type SetParams = ReturnType<typeof useQueryStates<typeof searchParams>>[1];

/**
 * Search across every archived call: the query and every filter in the URL, results grouped by call with their best
 * sentences (each a link to that moment in the call room), facets by ticker and quarter that narrow the search. The
 * reader's own notes that match come first, as "Your notes" (first page only), each a link to its moment.
 */
export function SearchView() {
  const router = useRouter();
  const [params, setParams] = useQueryStates(searchParams, searchUrlOptions);
  const filters = searchFilters(params);
  const search = useQuery(searchQueries.results(filters));
  const result = filters.q ? search.data?.data : undefined;
  const calls = result?.calls ?? [];

  const { activeIndex } = useRowNavigation(calls.length, {
    onOpen: (i) => {
      const call = calls[i];
      const hit = call?.hits[0];
      if (call && hit) router.push(callMomentHref(call.callId, hit));
    },
  });

  return (
    <div className="flex flex-col gap-3">
      <SearchForm key={`${params.q}|${params.tickers.join(",")}`} params={params} setParams={setParams} />
      {!filters.q ? (
        <SearchTips />
      ) : search.isError && !search.isPlaceholderData ? (
        isApiError(search.error) && search.error.status === 400 ? (
          <ErrorState title="Check your search" message={search.error.message} />
        ) : (
          <ErrorState
            title="Search failed"
            message={search.error.message}
            onRetry={() => void search.refetch()}
          />
        )
      ) : !result ? (
        <ResultsSkeleton />
      ) : (
        <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_220px]">
          <section
            aria-label="Results"
            aria-busy={search.isFetching}
            className={cn("flex min-w-0 flex-col gap-3", search.isPlaceholderData && "opacity-60")}
          >
            <ResultSummary result={result} tookMs={search.data?.meta.tookMs} />
            {result.notice ? (
              <p
                role="status"
                data-testid="search-notice"
                className="border-warn/40 bg-warn-soft rounded border px-3 py-2 text-[13px]"
              >
                {result.notice}
              </p>
            ) : null}
            {result.notes.length > 0 ? <NoteResults result={result} /> : null}
            {calls.length === 0 ? (
              result.notice ? null : (
                <EmptyState
                  title={
                    result.archivedCalls === 0
                      ? "The archive is still empty"
                      : result.totalNotes > 0
                        ? "No transcript sentence matches"
                        : "No sentence and none of your notes matches"
                  }
                  hint={
                    result.archivedCalls === 0
                      ? "Calls are being indexed; try again in a moment."
                      : "Try fewer or other words, remove a filter, or use OR between alternatives."
                  }
                />
              )
            ) : (
              <ol className="flex flex-col gap-2" data-testid="search-results">
                {calls.map((call, i) => (
                  <ResultCall key={call.callId} call={call} isActive={i === activeIndex} />
                ))}
              </ol>
            )}
            <Pager result={result} onPage={(page) => void setParams({ page })} />
          </section>
          <Facets result={result} params={params} setParams={setParams} />
        </div>
      )}
    </div>
  );
}

function SearchForm({ params, setParams }: { params: Params; setParams: SetParams }) {
  const [text, setText] = useState(params.q);
  const [tickerText, setTickerText] = useState(params.tickers.join(", "));
  const hasFilters =
    params.tickers.length > 0 ||
    params.from !== null ||
    params.to !== null ||
    params.speaker !== null ||
    params.section !== null ||
    params.quarter !== null;
  return (
    <form
      role="search"
      aria-label="Search transcripts"
      className="flex flex-col gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        void setParams({ q: text.trim(), tickers: parseTickers(tickerText), page: 0 });
      }}
    >
      <div className="flex gap-2">
        <Input
          type="search"
          name="q"
          aria-label="Search every call's transcript"
          data-testid="search-input"
          className="h-8 min-w-0 flex-1 text-sm"
          placeholder='e.g. tariffs, "supply chain" -china, pricing OR margins'
          value={text}
          autoFocus={!params.q}
          maxLength={600}
          onChange={(e) => setText(e.currentTarget.value)}
        />
        <Button type="submit" variant="primary" className="h-8">
          Search
        </Button>
      </div>
      <div className="flex flex-wrap items-end gap-2">
        <Field label="Tickers" htmlFor="search-tickers">
          <Input
            id="search-tickers"
            className="w-40"
            placeholder="e.g. AAPL, MSFT"
            value={tickerText}
            onChange={(e) => setTickerText(e.currentTarget.value)}
            onBlur={() => {
              const next = parseTickers(tickerText);
              if (next.join(",") !== params.tickers.join(",")) void setParams({ tickers: next, page: 0 });
            }}
          />
        </Field>
        <Field label="From (UTC)" htmlFor="search-from">
          <Input
            id="search-from"
            type="date"
            value={params.from ?? ""}
            onChange={(e) => void setParams({ from: e.currentTarget.value || null, page: 0 })}
          />
        </Field>
        <Field label="To (UTC)" htmlFor="search-to">
          <Input
            id="search-to"
            type="date"
            value={params.to ?? ""}
            onChange={(e) => void setParams({ to: e.currentTarget.value || null, page: 0 })}
          />
        </Field>
        <Field label="Speaker" htmlFor="search-speaker">
          <Select
            id="search-speaker"
            value={params.speaker ?? ""}
            onChange={(e) =>
              void setParams({ speaker: (e.currentTarget.value || null) as Params["speaker"], page: 0 })
            }
          >
            <option value="">Anyone</option>
            <option value="executive">Executives</option>
            <option value="analyst">Analysts</option>
            <option value="operator">Operator</option>
          </Select>
        </Field>
        <Field label="Part of the call" htmlFor="search-section">
          <Select
            id="search-section"
            value={params.section ?? ""}
            onChange={(e) =>
              void setParams({ section: (e.currentTarget.value || null) as Params["section"], page: 0 })
            }
          >
            <option value="">Whole call</option>
            <option value="prepared">Prepared remarks</option>
            <option value="qa">Q&amp;A</option>
          </Select>
        </Field>
        {hasFilters ? (
          <Button
            variant="ghost"
            onClick={() => {
              setTickerText("");
              void setParams({
                tickers: [],
                from: null,
                to: null,
                speaker: null,
                section: null,
                quarter: null,
                page: 0,
              });
            }}
          >
            Clear filters
          </Button>
        ) : null}
      </div>
    </form>
  );
}

function ResultSummary({ result, tookMs }: { result: SearchAnswer; tookMs: number | undefined }) {
  if (result.totalCalls === 0 && result.totalNotes === 0) return null;
  return (
    <p className="text-muted text-[13px] tabular-nums" aria-live="polite" data-testid="search-summary">
      {result.totalCalls > 0
        ? `${formatCount(result.totalHits, "matching sentence")} in ${formatCount(result.totalCalls, "call")}`
        : "No matching sentence"}
      {result.totalNotes > 0
        ? ` · ${formatCount(result.totalNotes, "of your notes", "of your notes")}`
        : null}
      {tookMs !== undefined ? <span className="text-2xs"> · {tookMs} ms</span> : null}
    </p>
  );
}

/** The reader's own notes that match: the note (and the sentence it quotes) with the words marked, its call, its moment. */
function NoteResults({ result }: { result: SearchAnswer }) {
  const more = result.totalNotes - result.notes.length;
  return (
    <section
      aria-labelledby="search-notes-heading"
      data-testid="search-notes"
      className="flex flex-col gap-1"
    >
      <h2 id="search-notes-heading" className="text-2xs text-muted font-semibold tracking-wide uppercase">
        Your notes{" "}
        <span className="tabular-nums">({formatCount(result.totalNotes, "match", "matches")})</span>
      </h2>
      <ol className="border-line divide-line flex flex-col divide-y rounded border">
        {result.notes.map((note) => (
          <NoteResult key={note.id} note={note} />
        ))}
      </ol>
      {more > 0 ? (
        <p className="text-2xs text-muted">
          {formatCount(more, "more note")} {more === 1 ? "matches" : "match"}: add words or a filter to narrow
          them.
        </p>
      ) : null}
    </section>
  );
}

function noteHref(note: SearchNote): string {
  return note.sequence !== null
    ? callMomentHref(note.callId, { sequence: note.sequence, startMs: note.atMs })
    : callTimeHref(note.callId, note.atMs);
}

function NoteResult({ note }: { note: SearchNote }) {
  const call = note.call;
  return (
    <li data-testid="search-note" data-note-id={note.id} className="px-3 py-1.5 text-[13px] leading-5">
      <div className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5">
        {call ? <span className="font-semibold">{call.symbol}</span> : null}
        <IntentLink
          href={callHref(note.callId)}
          className="text-muted min-w-0 truncate text-xs hover:underline"
          title={call?.title}
        >
          {call?.title ?? `Call ${note.callId}`}
        </IntentLink>
        {call ? (
          <span className="text-2xs text-muted tabular-nums">
            <LocalTime value={call.startTime} />
          </span>
        ) : null}
      </div>
      <IntentLink
        href={noteHref(note)}
        data-testid="search-note-link"
        className="hover:bg-surface focus-visible:bg-surface -mx-1 grid grid-cols-[3rem_1fr] gap-x-2 rounded px-1 py-0.5"
      >
        <span className="text-muted text-xs tabular-nums">{formatClock(note.atMs / 1000)}</span>
        <span className="flex min-w-0 flex-col gap-0.5">
          {note.text.length > 0 ? (
            <span className="break-words whitespace-pre-line">
              <HighlightedText parts={note.text} />
            </span>
          ) : null}
          {note.quote ? (
            <span className="border-line text-muted border-l-2 pl-2 break-words">
              <span className="sr-only">Quoting: </span>
              <HighlightedText parts={note.quote} />
            </span>
          ) : null}
        </span>
      </IntentLink>
    </li>
  );
}

function ResultCall({ call, isActive }: { call: SearchCall; isActive: boolean }) {
  const first = call.hits[0];
  return (
    <li
      data-testid="search-result"
      data-call-id={call.callId}
      data-active={isActive || undefined}
      className={cn(
        "border-line rounded border px-3 py-2",
        isActive && "border-accent ring-accent/40 ring-1",
      )}
    >
      <div className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5">
        <span className="inline-flex items-center gap-0.5 self-center">
          <span className="font-semibold">{call.symbol}</span>
          <FollowButton symbol={call.symbol} compact />
        </span>
        <IntentLink
          href={first ? callMomentHref(call.callId, first) : callHref(call.callId)}
          className="min-w-0 truncate font-medium hover:underline"
          title={call.title}
        >
          {call.title}
        </IntentLink>
        {call.status === "live" ? <CallStatusBadge status="live" /> : null}
        <span className="text-2xs text-muted tabular-nums">
          <LocalTime value={call.startTime} /> · {formatCount(call.hitCount, "match", "matches")}
        </span>
      </div>
      <ul className="mt-1 flex flex-col">
        {call.hits.map((hit) => (
          <li key={hit.sequence}>
            <IntentLink
              href={callMomentHref(call.callId, hit)}
              data-testid="search-hit-link"
              className="hover:bg-surface focus-visible:bg-surface grid grid-cols-[3rem_1fr] gap-x-2 rounded px-1 py-0.5 text-[13px] leading-5"
            >
              <span className="text-muted text-xs tabular-nums">{formatClock(hit.startMs / 1000)}</span>
              <span className="min-w-0">
                <span className="text-2xs text-muted mr-1.5 font-semibold tracking-wide uppercase">
                  {speakerLabel(hit)}
                  {hit.section === "qa" ? " · Q&A" : ""}
                </span>
                <HighlightedText parts={hit.highlight} />
              </span>
            </IntentLink>
          </li>
        ))}
      </ul>
    </li>
  );
}

function Pager({ result, onPage }: { result: SearchAnswer; onPage: (page: number) => void }) {
  const pageCount = Math.ceil(result.totalCalls / result.pageSize);
  if (pageCount <= 1) return null;
  return (
    <nav aria-label="Pages" className="flex items-center gap-2 text-[13px]">
      <Button onClick={() => onPage(result.page - 1)} disabled={result.page === 0}>
        ← Previous
      </Button>
      <span className="text-muted tabular-nums">
        Page {result.page + 1} of {pageCount}
      </span>
      <Button onClick={() => onPage(result.page + 1)} disabled={result.page + 1 >= pageCount}>
        Next →
      </Button>
    </nav>
  );
}

function Facets({
  result,
  params,
  setParams,
}: {
  result: SearchAnswer;
  params: Params;
  setParams: SetParams;
}) {
  const { tickers, quarters } = result.facets;
  if (tickers.length === 0 && quarters.length === 0) return null;
  return (
    <aside aria-label="Narrow the search" className="flex flex-col gap-4 lg:order-none">
      <FacetList
        title="Ticker"
        facets={tickers}
        isSelected={(v) => params.tickers.length === 1 && params.tickers[0] === v}
        label={(v) => v}
        onToggle={(v, selected) => void setParams({ tickers: selected ? [] : [v], page: 0 })}
      />
      <FacetList
        title="Quarter"
        facets={quarters}
        isSelected={(v) => params.quarter === v}
        label={quarterLabel}
        onToggle={(v, selected) => void setParams({ quarter: selected ? null : v, page: 0 })}
      />
    </aside>
  );
}

function FacetList({
  title,
  facets,
  isSelected,
  label,
  onToggle,
}: {
  title: string;
  facets: Facet[];
  isSelected: (value: string) => boolean;
  label: (value: string) => string;
  onToggle: (value: string, selected: boolean) => void;
}) {
  if (facets.length === 0) return null;
  return (
    <div>
      <h2 className="text-2xs text-muted mb-1 font-semibold tracking-wide uppercase">{title}</h2>
      <ul className="flex flex-wrap gap-1 lg:flex-col lg:gap-0" data-testid={`facet-${title.toLowerCase()}`}>
        {facets.map((f) => {
          const selected = isSelected(f.value);
          return (
            <li key={f.value}>
              <button
                type="button"
                aria-pressed={selected}
                onClick={() => onToggle(f.value, selected)}
                className={cn(
                  "hover:bg-surface-2 flex h-7 w-full items-center justify-between gap-3 rounded px-2 text-[13px]",
                  selected
                    ? "bg-accent-soft text-accent font-semibold"
                    : "border-line border lg:border-transparent",
                )}
              >
                <span>{label(f.value)}</span>
                <span className="text-muted text-2xs tabular-nums">{f.calls}</span>
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function SearchTips() {
  return (
    <EmptyState
      title="Search every call's transcript"
      hint={
        <>
          Words match their forms (tariff, tariffs). Use “quotes” for a phrase, -word to leave a word out, and
          OR between alternatives. Filters narrow by company, dates, who speaks and the part of the call. Your
          own call-room notes are searched too.
        </>
      }
    />
  );
}

function ResultsSkeleton() {
  return (
    <div role="status" aria-label="Searching" aria-busy className="flex flex-col gap-2">
      <Skeleton className="h-3 w-56" />
      {Array.from({ length: 4 }, (_, i) => (
        <div key={i} className="border-line flex flex-col gap-1.5 rounded border px-3 py-2">
          <Skeleton className="h-3.5 w-80 max-w-full" />
          <Skeleton className="h-3 w-full" />
          <Skeleton className="h-3 w-5/6" />
        </div>
      ))}
    </div>
  );
}
