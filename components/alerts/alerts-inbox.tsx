"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { cn } from "@/components/ui/cn";
import { LocalTime } from "@/components/ui/local-time";
import { EmptyState, ErrorState } from "@/components/ui/panel-state";
import { Skeleton } from "@/components/ui/skeleton";
import { alertQueries, useMarkRead } from "@/lib/queries/alerts";
import { alertPath } from "@/lib/schemas/alerts";
import { kindLabel } from "./alerts-bell";

/** The alerts inbox, newest first; unread ones stand out; opening one marks it read and goes to its moment. */
export function AlertsInbox() {
  const router = useRouter();
  const { data, error, isPending, refetch } = useQuery(alertQueries.inbox(100));
  const markRead = useMarkRead();
  if (isPending) return <Skeleton className="h-40 w-full" />;
  if (error)
    return (
      <ErrorState title="Could not load your alerts" message={error.message} onRetry={() => void refetch()} />
    );
  if (data.data.length === 0)
    return (
      <EmptyState
        title="No alerts yet"
        hint="Add a rule below; alerts appear here as calls say what you listen for."
      />
    );
  return (
    <ul className="divide-line border-line divide-y rounded border" data-testid="alerts-inbox">
      {data.data.map((alert) => (
        <li key={alert.id}>
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
  );
}
