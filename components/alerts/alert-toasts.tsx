"use client";

import { useRouter } from "next/navigation";
import { useCallback, useState } from "react";
import { cn } from "@/components/ui/cn";
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
 * Alerts as they fire. One toast at a time, the newest; when several arrive, the others collapse into one line that
 * counts them and opens the inbox (the bell's count has them all). Where it goes covers no control: at lg and wider
 * the top right corner under the header, which every page's header keeps free and tall enough for it (components/alerts/toast-corner.ts:
 * the page header, the company header, the call room's header, so neither a title's actions nor Figures nor Notes);
 * narrower, at the top of the page's flow, pushing the page down while it shows (never over a transcript's live
 * edge). The dashboard layout places it (components/alerts/alert-toasts-slot.tsx). Clicking a toast opens the call
 * room at its sentence (audio cued) and marks it read; "Mute call" silences the rest of that call.
 */
export function AlertToasts() {
  const router = useRouter();
  const [toasts, setToasts] = useState<Alert[]>([]);
  const markRead = useMarkRead();
  const mute = useMute();
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

  const [shown, ...others] = toasts;
  return (
    <div
      aria-live="polite"
      data-testid="alert-toasts"
      className={cn(
        "pointer-events-none z-40 flex flex-col gap-1",
        // Narrower than lg: in the page's flow, under the header, so a toast moves the page down instead of covering
        // its top (a title's actions, a call's live edge); it sticks under the header while the page scrolls.
        "max-lg:sticky max-lg:top-[5.25rem] md:max-lg:top-[3.25rem]",
        toasts.length > 0 && "max-lg:mb-3",
        // lg and wider: the corner every page's header leaves free (TOAST_CORNER).
        "lg:fixed lg:top-[3.25rem] lg:right-3 lg:w-[24rem]",
      )}
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
    </div>
  );
}
