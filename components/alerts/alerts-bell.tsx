"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useCallback, useState, useSyncExternalStore } from "react";
import { createPortal } from "react-dom";
import { IntentLink } from "@/components/ui/intent-link";
import { cn } from "@/components/ui/cn";
import { alertQueries, useMarkRead } from "@/lib/queries/alerts";
import { alertPath, type Alert } from "@/lib/schemas/alerts";
import { notifyAlert } from "./notify";
import { useAlertStream } from "./use-alert-stream";

const MAX_TOASTS = 4;
const TOAST_MS = 15_000;

/**
 * The header's link to the alerts inbox with the unread count, and the toasts of alerts as they fire: each quotes
 * the sentence; clicking it opens the call room at that moment (audio cued) and marks the alert read.
 */
export function AlertsBell({ className }: { className?: string }) {
  const router = useRouter();
  const { data } = useQuery({ ...alertQueries.inbox(), refetchInterval: 60_000 });
  const unread = data?.unread ?? 0;
  const [toasts, setToasts] = useState<Alert[]>([]);
  const markRead = useMarkRead();
  // The toasts live in <body>, not here: the header's backdrop-filter makes it the containing block of anything
  // `position: fixed` inside it, which put "the bottom of the screen" at the header's bottom, the toasts above the
  // top of the window. The region exists from hydration on, so screen readers announce what is added to it.
  const toastRoot = useSyncExternalStore(
    noopSubscribe,
    () => document.body,
    () => null,
  );

  const dismiss = useCallback((id: string) => setToasts((list) => list.filter((a) => a.id !== id)), []);
  const open = useCallback(
    (alert: Alert) => {
      dismiss(alert.id);
      markRead.mutate(alert.id);
      router.push(alertPath(alert));
    },
    [dismiss, markRead, router],
  );

  useAlertStream((alert) => {
    setToasts((list) => [alert, ...list.filter((a) => a.id !== alert.id)].slice(0, MAX_TOASTS));
    setTimeout(() => dismiss(alert.id), TOAST_MS);
    notifyAlert(alert, (path) => {
      markRead.mutate(alert.id);
      router.push(path);
    });
  });

  return (
    <>
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
      {toastRoot
        ? createPortal(
            <div
              aria-live="polite"
              data-testid="alert-toasts"
              className="pointer-events-none fixed right-3 bottom-3 z-50 flex w-[min(26rem,calc(100vw-1.5rem))] flex-col gap-2"
            >
              {toasts.map((alert) => (
                <div
                  key={alert.id}
                  role="status"
                  data-testid="alert-toast"
                  className="border-line bg-canvas pointer-events-auto rounded border shadow-lg"
                >
                  <button
                    type="button"
                    onClick={() => open(alert)}
                    className="hover:bg-surface block w-full px-3 py-2 text-left"
                  >
                    <span className="text-2xs text-muted block">
                      <span className="text-fg font-semibold">{alert.symbol}</span> · {kindLabel(alert.kind)}{" "}
                      · open at this moment
                    </span>
                    <span className="mt-0.5 block text-[13px]">“{alert.text}”</span>
                  </button>
                  <button
                    type="button"
                    onClick={() => dismiss(alert.id)}
                    className="text-2xs text-muted hover:text-fg border-line w-full border-t px-3 py-1 text-right"
                  >
                    Dismiss
                  </button>
                </div>
              ))}
            </div>,
            toastRoot,
          )
        : null}
    </>
  );
}

const noopSubscribe = () => () => {};

export function kindLabel(kind: Alert["kind"]): string {
  switch (kind) {
    case "keyword":
      return "keyword";
    case "call-live":
      return "call live";
    case "results":
      return "results";
    case "sentiment":
      return "sentiment";
    case "guidance":
      return "guidance";
  }
}
