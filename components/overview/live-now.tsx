"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { IntentLink } from "@/components/ui/intent-link";
import { Section } from "@/components/ui/card";
import { ErrorState } from "@/components/ui/panel-state";
import { Skeleton } from "@/components/ui/skeleton";
import { Elapsed } from "@/components/calls/elapsed";
import { followedFirst, useFollowedTickers } from "@/components/watchlists/use-followed-first";
import { callHref } from "@/lib/call-links";
import { formatCount } from "@/lib/format";
import { boardOrder, liveQueries } from "@/lib/queries/live";
import type { EarningsRow } from "@/lib/schemas/calendar";
import { StartingSoon, useStartingSoon } from "./starting-soon";
import type { CallListItem } from "@/lib/schemas/calls";

const LIVE_SHOWN = 12;

/**
 * The head of the morning view: every call live now (the followed companies' first, each a link into its call room)
 * and the reports due within the hour whose calls are about to start. The live list is refreshed every 30 s
 * (the /live board follows the stream; this page stays light).
 */
export function LiveNow({
  todayRows,
  todayCalls,
}: {
  todayRows: readonly EarningsRow[];
  todayCalls: ReadonlyMap<string, CallListItem>;
}) {
  const board = useQuery({ ...liveQueries.board(), staleTime: 30_000, refetchInterval: 30_000 });
  const followed = useFollowedTickers();
  const live = useMemo(
    () => followedFirst(boardOrder(board.data?.data.filter((c) => c.status === "live") ?? []), followed),
    [board.data, followed],
  );
  const soon = useStartingSoon(todayRows, todayCalls, followed);

  return (
    <Section
      id="live-now"
      title={
        <>
          Live now{" "}
          <span className="text-muted font-normal">
            {board.data ? `· ${formatCount(live.length, "call")}` : ""}
            {soon.reports.length > 0
              ? ` · ${formatCount(soon.reports.length, "report")} due within the hour`
              : ""}
          </span>
        </>
      }
      actions={
        <IntentLink href="/live" className="text-accent text-[13px] hover:underline">
          Live board →
        </IntentLink>
      }
    >
      <div className="grid gap-x-8 gap-y-3 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div>
          {board.isPending ? (
            <div role="status" aria-label="Loading live calls" aria-busy className="flex flex-col gap-1">
              {Array.from({ length: 3 }, (_, i) => (
                <Skeleton key={i} className="h-[30px] w-full" />
              ))}
            </div>
          ) : board.isError && !board.data ? (
            <ErrorState
              title="Could not load the live calls"
              message={board.error.message}
              onRetry={() => void board.refetch()}
            />
          ) : live.length === 0 ? (
            <p className="text-muted border-line rounded border px-3 py-2 text-[13px]">
              No call is live right now; calls appear here as they start (within 30 s).
            </p>
          ) : (
            <ul
              className="divide-line border-line divide-y rounded border"
              aria-label="Calls live now"
              data-testid="live-now"
            >
              {live.slice(0, LIVE_SHOWN).map((call) => (
                <LiveRow key={call.callId} call={call} isFollowed={followed.has(call.symbol.toUpperCase())} />
              ))}
              {live.length > LIVE_SHOWN ? (
                <li className="text-2xs px-3 py-1">
                  <IntentLink href="/live" className="text-accent hover:underline">
                    {formatCount(live.length - LIVE_SHOWN, "more live call")} on the live board →
                  </IntentLink>
                </li>
              ) : null}
            </ul>
          )}
        </div>
        <div>
          <h3 className="text-2xs text-muted mb-1 font-semibold tracking-wide uppercase">Starting soon</h3>
          <StartingSoon reports={soon} followed={followed} />
        </div>
      </div>
    </Section>
  );
}

function LiveRow({ call, isFollowed }: { call: CallListItem; isFollowed: boolean }) {
  return (
    <li data-testid="live-now-call" data-call-id={call.callId} data-symbol={call.symbol}>
      <IntentLink
        href={callHref(call.callId)}
        className="hover:bg-surface flex min-w-0 items-baseline gap-2 px-3 py-1.5 text-[13px]"
      >
        <span
          aria-hidden
          className="bg-accent animate-pulse-dot inline-block size-1.5 shrink-0 self-center rounded-full"
        />
        <span className="text-accent w-14 shrink-0 font-mono font-semibold">{call.symbol}</span>
        <span className="min-w-0 flex-1 truncate">{call.name}</span>
        {isFollowed ? (
          <span className="text-2xs text-muted shrink-0" title="You follow this company">
            ★ following
          </span>
        ) : null}
        <span className="text-2xs text-muted shrink-0">
          {call.period ? `${call.period} ${call.year ?? ""}` : ""}
        </span>
        <Elapsed
          startTime={call.startTime}
          endTime={call.endTime}
          durationSeconds={call.durationSeconds}
          isLive
          className="w-12 shrink-0 text-right tabular-nums"
        />
        <span className="sr-only">Open the call room</span>
      </IntentLink>
    </li>
  );
}
