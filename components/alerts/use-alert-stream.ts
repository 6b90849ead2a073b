"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import type { Alert } from "@/lib/schemas/alerts";
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
    // The schema (and zod with it) is fetched once the page is up, not with every page's first load: this hook runs
    // in the header on every page (docs/day.md, Measured). Alerts wait for it in the order they came.
    const schema = import("@/lib/schemas/alerts").then((m) => m.alertSchema);
    let closed = false;
    const listener = async (event: MessageEvent<string>) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(event.data);
      } catch {
        return;
      }
      // Should the schema not load (a network hiccup), the toast is skipped; the inbox, refreshed below, has the alert.
      const parser = await schema.catch(() => null);
      if (closed) return;
      const alert = parser?.safeParse(parsed);
      if (alert?.success) handler.current(alert.data);
      if (timer) stale = true;
      else refreshInbox();
    };
    source.addEventListener("alert", listener);
    return () => {
      closed = true;
      if (timer) clearTimeout(timer);
      source.removeEventListener("alert", listener);
      source.close();
    };
  }, [client]);
}
