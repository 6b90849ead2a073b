"use client";

import { useQuery } from "@tanstack/react-query";
import { IntentLink } from "@/components/ui/intent-link";
import { cn } from "@/components/ui/cn";
import { alertQueries } from "@/lib/queries/alerts";

/**
 * The header's link to the alerts inbox with the unread count (the toasts are the layout's: alert-toasts-slot.tsx).
 * The count is the one cached answer the inbox shows too (lib/queries/alerts.ts), refreshed as alerts arrive and
 * lowered at once when one is read or muted, so the two always agree.
 */
export function AlertsBell({ className }: { className?: string }) {
  const { data } = useQuery({ ...alertQueries.inbox(), refetchInterval: 60_000 });
  const unread = data?.unread ?? 0;
  return (
    <IntentLink
      href="/alerts"
      className={cn(
        "hover:bg-surface-2 inline-flex h-7 items-center gap-1 rounded px-2 text-[13px]",
        unread > 0 ? "text-fg font-semibold" : "text-muted",
        className,
      )}
      aria-label={unread > 0 ? `Alerts, ${unread} unread` : "Alerts"}
      data-testid="alerts-bell"
    >
      <span aria-hidden>◉</span>
      {/* Phones: the mark and the count only (the link keeps its accessible name), so the header fits 360 px. */}
      <span className="max-sm:hidden">Alerts</span>
      {unread > 0 ? (
        <span
          data-testid="alerts-unread"
          className="bg-accent text-canvas rounded px-1 text-[11px] tabular-nums"
        >
          {unread > 99 ? "99+" : unread}
        </span>
      ) : null}
    </IntentLink>
  );
}
