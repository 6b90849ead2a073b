"use client";

import { useQuery } from "@tanstack/react-query";
import { parseAsBoolean, useQueryState } from "nuqs";
import { memo, useMemo } from "react";
import { StartingSoon, useStartingSoon } from "@/components/overview/starting-soon";
import { calendarQueries } from "@/lib/queries/calendar";
import { overviewFilters } from "@/lib/queries/overview";
import { useReportCalls } from "@/lib/queries/report-calls";
import { IntentLink } from "@/components/ui/intent-link";
import { cn } from "@/components/ui/cn";
import { EmptyState, ErrorState, StaleNote } from "@/components/ui/panel-state";
import { Skeleton } from "@/components/ui/skeleton";
import { useTimeZone } from "@/components/ui/use-time-zone";
import { formatDateTime, formatRelative } from "@/lib/format";
import { useLiveStream } from "@/lib/live/use-live-stream";
import { callQueries } from "@/lib/queries/calls";
import { boardOrder, liveQueries } from "@/lib/queries/live";
import type { CallListItem } from "@/lib/schemas/calls";
import {
  formatSentiment,
  meanSentiment,
  sentimentSourceLabel,
  sentimentTone,
  speakerLabel,
} from "./call-format";
import { SentimentSourceTag } from "./sentiment-source-tag";
import { CallStatusBadge } from "./call-status-badge";
import { Elapsed } from "./elapsed";
import { StreamIndicator } from "./stream-indicator";
import { TileFigures } from "./insights/tile-figures";
import { useNow } from "./use-now";
import { FollowButton } from "@/components/watchlists/follow-button";
import { followedFirst, useFollowedTickers } from "@/components/watchlists/use-followed-first";

const TILE_HEIGHT = "h-[184px]";
const TAIL = 3;

/**
 * Every live call as a tile, the followed companies' first (watchlists). The board follows `tickers=*`: a call that
 * starts is added after the others of its group; a call that ends stays, marked, until the page is reloaded.
 */
export function LiveBoard() {
  const board = useQuery(liveQueries.board());
  const stream = useLiveStream({ tickers: "*" });
  const followed = useFollowedTickers();
  const [onlyMine, setOnlyMine] = useQueryState("mine", parseAsBoolean.withDefault(false));
  const everyCall = followedFirst(board.data ? boardOrder(board.data.data) : [], followed);
  const calls = onlyMine ? everyCall.filter((c) => followed.has(c.symbol.toUpperCase())) : everyCall;
  const liveCount = calls.filter((c) => c.status === "live").length;
  const today = useQuery(calendarQueries.earnings(overviewFilters().today));
  const todayRows = useMemo(() => today.data?.data ?? [], [today.data]);
  const reportCalls = useReportCalls(todayRows);
  const soon = useStartingSoon(todayRows, reportCalls, followed);
  const shownSoon = onlyMine
    ? { ...soon, reports: soon.reports.filter((r) => followed.has(r.ticker.toUpperCase())) }
    : soon;

  return (
    <div className="flex flex-col gap-3">
      <div className="flex min-h-6 flex-wrap items-center gap-3 text-[13px]">
        <span className="text-muted tabular-nums" aria-live="polite">
          {board.data
            ? `${liveCount} live ${liveCount === 1 ? "call" : "calls"}${onlyMine ? " of your companies" : ""}`
            : ""}
        </span>
        <label className="flex items-center gap-1.5">
          <input
            type="checkbox"
            checked={onlyMine}
            onChange={(e) => void setOnlyMine(e.target.checked || null)}
          />
          Only my companies
          {followed.size === 0 ? <span className="text-2xs text-muted">(you follow none yet)</span> : null}
        </label>
        <StreamIndicator status={stream} />
      </div>
      <section
        aria-labelledby="starting-soon-heading"
        className="border-line flex flex-wrap items-baseline gap-x-4 gap-y-1 rounded border px-3 py-1.5"
      >
        <h2
          id="starting-soon-heading"
          className="text-2xs text-muted shrink-0 font-semibold tracking-wide uppercase"
        >
          Starting within the hour
        </h2>
        <div className="min-w-0 flex-1">
          <StartingSoon reports={shownSoon} followed={followed} />
        </div>
      </section>
      {board.data?.meta.stale ? <StaleNote fetchedAt={board.data.meta.fetchedAt} /> : null}
      {board.isPending ? (
        <ul
          className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-3"
          role="status"
          aria-label="Loading live calls"
          aria-busy
        >
          {Array.from({ length: 3 }, (_, i) => (
            <li key={i} className={cn("border-line flex flex-col gap-2 rounded border p-3", TILE_HEIGHT)}>
              <Skeleton className="h-4 w-40" />
              <Skeleton className="h-3 w-24" />
              <Skeleton className="mt-2 h-3 w-full" />
              <Skeleton className="h-3 w-5/6" />
              <Skeleton className="h-3 w-2/3" />
            </li>
          ))}
        </ul>
      ) : board.isError ? (
        <ErrorState
          title="Could not load the live calls"
          message={board.error.message}
          onRetry={() => void board.refetch()}
        />
      ) : calls.length === 0 && onlyMine && everyCall.length > 0 ? (
        <EmptyState
          title="None of your companies is live right now"
          hint={`${everyCall.length} other ${everyCall.length === 1 ? "call is" : "calls are"} live: clear “Only my companies” to see them.`}
        />
      ) : calls.length === 0 ? (
        <EmptyState
          title="No call is live right now"
          hint={
            <>
              Calls appear here by themselves the moment they start. Meanwhile, browse{" "}
              <IntentLink className="text-accent hover:underline" href="/calls">
                past calls
              </IntentLink>{" "}
              or the{" "}
              <IntentLink className="text-accent hover:underline" href="/calendar/earnings">
                earnings calendar
              </IntentLink>
              .
            </>
          }
        />
      ) : (
        <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-3" aria-label="Live calls">
          {calls.map((call) => (
            <LiveTile key={call.callId} call={call} />
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * Memoised, and without a clock of its own (the ticking figures are leaves with their own): a tile renders when its
 * call's data changes, not every second, nor when another tile's call does. With a dozen long calls on the board,
 * re-rendering every tile (and re-reading every sentence for the mean) each second kept a phone's main thread busy.
 */
const LiveTile = memo(function LiveTile({ call }: { call: CallListItem }) {
  const detail = useQuery(callQueries.detail(call.callId));
  const segments = detail.data?.data.segments ?? [];
  const status = detail.data?.data.status ?? call.status;
  const isLive = status === "live";
  const tail = segments.slice(-TAIL);
  const mean = meanSentiment(segments);
  const tone = sentimentTone(mean);
  const source = sentimentSourceLabel(segments);
  return (
    <li
      data-testid="live-tile"
      data-call-id={call.callId}
      data-status={status}
      className={cn(
        "border-line hover:border-line-strong relative flex flex-col gap-1.5 rounded border p-3",
        TILE_HEIGHT,
        !isLive && "bg-surface",
      )}
    >
      <div className="flex items-center gap-2">
        <h2 className="min-w-0 flex-1 truncate text-sm font-semibold">
          {/* The link covers the tile: the whole tile clickable, one tab stop for the call (and one for its star). */}
          <IntentLink
            href={`/calls/${call.callId}`}
            className="after:absolute after:inset-0 after:content-[''] hover:underline"
          >
            <span className="mr-1.5">{call.symbol}</span>
            <span className="text-muted font-normal">{call.name}</span>
          </IntentLink>
        </h2>
        {/* Above the stretched link, so a click on the star follows instead of opening the call. */}
        <FollowButton symbol={call.symbol} compact className="relative z-10" />
        <CallStatusBadge status={status} />
      </div>
      <div className="text-2xs text-muted flex flex-wrap items-center gap-x-3 gap-y-0.5 whitespace-nowrap">
        <span>
          {isLive ? "Elapsed " : "Ran "}
          <Elapsed
            startTime={call.startTime}
            endTime={detail.data?.data.endTime ?? call.endTime}
            durationSeconds={detail.data?.data.durationSeconds ?? call.durationSeconds}
            isLive={isLive}
            className="text-fg font-semibold tabular-nums"
          />
        </span>
        <StartedAgo startTime={call.startTime} />
        <span className="ml-auto flex items-baseline gap-1.5" data-testid="live-tile-sentiment">
          <span>Sentiment so far</span>
          <span
            className={cn(
              "font-semibold tabular-nums",
              tone === "pos" && "text-pos",
              tone === "neg" && "text-neg",
              tone === "neutral" && "text-fg",
            )}
          >
            {mean !== null && mean >= 0.1 ? "▲ " : mean !== null && mean <= -0.1 ? "▼ " : ""}
            {formatSentiment(mean)}
          </span>
          {source ? <SentimentSourceTag source={source} /> : null}
        </span>
      </div>
      <TileFigures callId={call.callId} segments={segments} isLive={isLive} />
      {/* Bottom-aligned: on a narrow tile the oldest line is the one cut, never the sentence just spoken. */}
      <div
        className={cn(
          "flex min-h-0 flex-1 flex-col overflow-hidden",
          tail.length > 0 && "justify-end [mask-image:linear-gradient(to_bottom,transparent,#000_14px)]",
        )}
        aria-live="off"
      >
        {detail.isPending ? (
          <div className="flex flex-col gap-1.5 pt-1">
            <Skeleton className="h-3 w-full" />
            <Skeleton className="h-3 w-5/6" />
          </div>
        ) : tail.length === 0 ? (
          <p className="text-muted text-[13px]">
            {isLive ? "Waiting for the first sentence…" : "No transcript."}
          </p>
        ) : (
          <ol className="flex flex-col gap-0.5 text-[13px] leading-[18px]" data-testid="live-tile-sentences">
            {tail.map((s) => (
              <li key={s.sequence} className="line-clamp-2">
                <span className="text-muted text-2xs font-semibold tracking-wide uppercase">
                  {speakerLabel(s)}:
                </span>{" "}
                {s.text}
              </li>
            ))}
          </ol>
        )}
      </div>
    </li>
  );
});

/** "started 12 min ago", kept current by the page's shared clock (the absolute time until hydrated). */
function StartedAgo({ startTime }: { startTime: string }) {
  const now = useNow();
  const timeZone = useTimeZone();
  return (
    <span title={formatDateTime(startTime, timeZone)}>
      started{" "}
      {now !== null ? formatRelative(Date.parse(startTime), now) : formatDateTime(startTime, timeZone)}
    </span>
  );
}
