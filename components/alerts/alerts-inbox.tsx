"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { LocalTime } from "@/components/ui/local-time";
import { EmptyState, ErrorState } from "@/components/ui/panel-state";
import { Skeleton } from "@/components/ui/skeleton";
import { alertQueries, useMarkAllRead, useMarkRead } from "@/lib/queries/alerts";
import { alertPath } from "@/lib/schemas/alerts";
import { kindLabel } from "./alerts-bell";

/**
 * The alerts inbox, newest first, a hundred at a time with older ones on request; unread ones stand out; opening one
 * marks it read and goes to its moment. "Mark all read" marks up to the newest alert shown, so one that fires while
 * the reader clicks stays unread.
 */
export function AlertsInbox() {
  const router = useRouter();
  const inbox = useInfiniteQuery(alertQueries.inboxPages());
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();
  if (inbox.isPending) return <Skeleton className="h-40 w-full" />;
  if (inbox.error)
    return (
      <ErrorState
        title="Could not load your alerts"
        message={inbox.error.message}
        onRetry={() => void inbox.refetch()}
      />
    );
  const alerts = inbox.data.pages.flatMap((page) => page.data);
  const unread = inbox.data.pages[0]?.unread ?? 0;
  if (alerts.length === 0)
    return (
      <EmptyState
        title="No alerts yet"
        hint="Add a rule below; alerts appear here as calls say what you listen for."
      />
    );
  return (
    <div className="flex flex-col gap-2">
      <div className="text-2xs text-muted flex flex-wrap items-center gap-3">
        <span data-testid="alerts-inbox-unread">
          {unread === 0 ? "All read" : `${unread.toLocaleString("en-US")} unread`}
        </span>
        <Button onClick={() => markAll.mutate(alerts[0]?.id)} disabled={unread === 0 || markAll.isPending}>
          Mark all read
        </Button>
        {markAll.error ? (
          <span role="alert" className="text-neg">
            Could not mark them read: {markAll.error.message}
          </span>
        ) : null}
      </div>
      <ul className="divide-line border-line divide-y rounded border" data-testid="alerts-inbox">
        {alerts.map((alert) => (
          <li key={alert.id} data-alert-id={alert.id} data-read={alert.read}>
            <button
              type="button"
              className={cn(
                "hover:bg-surface flex w-full items-baseline gap-3 px-3 py-1.5 text-left",
                alert.read ? "text-muted" : "",
              )}
              onClick={() => {
                if (!alert.read) markRead.mutate(alert.id);
                router.push(alertPath(alert));
              }}
            >
              <span className="w-16 shrink-0 font-semibold">{alert.symbol}</span>
              <span className="text-2xs w-20 shrink-0">{kindLabel(alert.kind)}</span>
              <span
                className={cn("min-w-0 flex-1 truncate text-[13px]", alert.read ? "" : "text-fg font-medium")}
              >
                {alert.text}
              </span>
              <span className="text-2xs shrink-0 tabular-nums">
                <LocalTime value={alert.firedAt} />
              </span>
              {alert.read ? null : <span className="sr-only">unread</span>}
            </button>
          </li>
        ))}
      </ul>
      {inbox.hasNextPage ? (
        <Button
          className="self-start"
          onClick={() => void inbox.fetchNextPage()}
          disabled={inbox.isFetchingNextPage}
        >
          {inbox.isFetchingNextPage ? "Loading older alerts…" : "Show older alerts"}
        </Button>
      ) : null}
      {inbox.isFetchNextPageError ? (
        <p role="alert" className="text-neg text-2xs">
          Could not load older alerts. Try again.
        </p>
      ) : null}
    </div>
  );
}
