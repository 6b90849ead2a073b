"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import type { Alert } from "@/lib/schemas/alerts";
import { parseAlertMessage } from "@/lib/alerts/alert-message";
import { alertQueries } from "@/lib/queries/alerts";

/** At most one inbox refresh per this long while alerts arrive (a busy call fires several a second). */
const INBOX_REFRESH_MS = 1_000;

/**
 * The user's alerts as they fire (`/api/alerts/stream`): each is handed to `onAlert` (the toast) at once, and the
 * inbox and unread count are refreshed, at most once a second, so a burst of alerts is one refetch, not one per
 * alert. EventSource reconnects on its own; alerts fired meanwhile are in the inbox.
 */
export function useAlertStream(onAlert: (alert: Alert) => void): void {
  const client = useQueryClient();
  const handler = useRef(onAlert);
  useEffect(() => {
    handler.current = onAlert;
  });
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource("/api/alerts/stream");
    let timer: ReturnType<typeof setTimeout> | null = null;
    let stale = false;
    const refreshInbox = () => {
      stale = false;
      void client.invalidateQueries({ queryKey: [...alertQueries.all(), "inbox"] });
      timer = setTimeout(() => {
        timer = null;
        if (stale) refreshInbox();
      }, INBOX_REFRESH_MS);
    };
    const listener = (event: MessageEvent<string>) => {
      // Read without zod (lib/alerts/alert-message.ts): importing the schema once the page was up cost every page a
      // long task (docs/performance.md). Not an alert: no toast; the inbox, refreshed below, has what was fired.
      const alert = parseAlertMessage(event.data);
      if (alert) handler.current(alert);
      if (timer) stale = true;
      else refreshInbox();
    };
    source.addEventListener("alert", listener);
    return () => {
      if (timer) clearTimeout(timer);
      source.removeEventListener("alert", listener);
      source.close();
    };
  }, [client]);
}
