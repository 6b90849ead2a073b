"use client";

import { useRouter } from "next/navigation";
import { useCallback, useState, useSyncExternalStore } from "react";
import { createPortal } from "react-dom";
import { IntentLink } from "@/components/ui/intent-link";
import { mutedInThisTab, useMarkRead, useMute } from "@/lib/queries/alerts";
import { alertDetailsLine, alertPath, alertRulesLine } from "@/lib/alerts/display";
import type { Alert } from "@/lib/schemas/alerts";
import { AlertQuote, AlertRuleTags } from "./alert-quote";
import { notifyAlert } from "./notify";
import { useAlertStream } from "./use-alert-stream";

const TOAST_MS = 15_000;
/** How many recent alerts a collapsed stack still counts ("+3 more"); older ones are in the inbox anyway. */
const KEEP = 20;

/**
 * Alerts as they fire. One toast at a time, the newest, under the header at the top right (below both header rows
 * on narrow screens); when several arrive, the others collapse into one line that counts them and opens the inbox
 * (the bell's count has them all). The corner is chosen to cover nothing being worked on: never the live edge of a
 * transcript (its bottom), and in the call room the header's right end, which the room keeps free and tall enough
 * for it (components/calls/call-room.tsx), so neither Figures nor Notes. Clicking a toast opens the call room at its sentence (audio cued) and marks it read; "Mute call" silences
 * the rest of that call.
 */
export function AlertToasts() {
  const router = useRouter();
  const [toasts, setToasts] = useState<Alert[]>([]);
  const markRead = useMarkRead();
  const mute = useMute();
  // The toasts live in <body>, not in the header: its backdrop-filter makes it the containing block of anything
  // `position: fixed` inside it. The region exists from hydration on, so screen readers announce what is added.
  const root = useSyncExternalStore(
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
    if (mutedInThisTab(alert)) return;
    setToasts((list) => [alert, ...list.filter((a) => a.id !== alert.id)].slice(0, KEEP));
    setTimeout(() => dismiss(alert.id), TOAST_MS);
    notifyAlert(alert, (path) => {
      markRead.mutate(alert.id);
      router.push(path);
    });
  });

  if (!root) return null;
  const [shown, ...others] = toasts;
  return createPortal(
    <div
      aria-live="polite"
      data-testid="alert-toasts"
      className="pointer-events-none fixed top-[5.25rem] right-3 z-40 flex w-[min(24rem,calc(100vw-1.5rem))] flex-col gap-1 md:top-[3.25rem]"
    >
      {shown ? (
        <div
          key={shown.id}
          role="status"
          data-testid="alert-toast"
          data-alert-id={shown.id}
          className="border-line-strong bg-canvas pointer-events-auto relative rounded border shadow-lg"
        >
          <button
            type="button"
            onClick={() => open(shown)}
            className="hover:bg-surface block w-full py-1.5 pr-24 pl-3 text-left"
            aria-label={`${shown.symbol}, ${alertRulesLine(shown)}: ${shown.text}. Open at this moment`}
          >
            <span className="text-2xs text-muted flex items-baseline gap-1.5">
              <span className="text-fg text-[13px] font-semibold">{shown.symbol}</span>
              <AlertRuleTags alert={shown} className="min-w-0 truncate" />
            </span>
            <span className="line-clamp-2 block text-[13px] leading-[1.125rem]">
              “<AlertQuote alert={shown} />”
            </span>
            {alertDetailsLine(shown) ? (
              <span className="text-2xs text-muted block truncate">{alertDetailsLine(shown)}</span>
            ) : null}
          </button>
          {/* Beside the quote, not under it: the toast stays short enough for the corner it owns. */}
          <div className="text-2xs absolute top-1.5 right-2 flex items-center gap-2">
            {shown.callId ? (
              <button
                type="button"
                className="text-muted hover:text-fg"
                title="Silence the rest of this call"
                onClick={() => {
                  mute.mutate({ scope: "call", callId: shown.callId!, symbol: shown.symbol });
                  setToasts((list) => list.filter((a) => a.callId !== shown.callId));
                }}
              >
                Mute call
              </button>
            ) : null}
            <button
              type="button"
              className="text-muted hover:text-fg px-0.5 text-[13px] leading-none"
              aria-label="Dismiss"
              onClick={() => dismiss(shown.id)}
            >
              ×
            </button>
          </div>
        </div>
      ) : null}
      {others.length > 0 ? (
        <IntentLink
          href="/alerts"
          data-testid="alert-toasts-more"
          onClick={() => setToasts([])}
          className="border-line bg-canvas text-2xs hover:bg-surface pointer-events-auto self-end rounded border px-2 py-1 shadow"
        >
          +{others.length} more {others.length === 1 ? "alert" : "alerts"} · open the inbox
        </IntentLink>
      ) : null}
    </div>,
    root,
  );
}

const noopSubscribe = () => () => {};
