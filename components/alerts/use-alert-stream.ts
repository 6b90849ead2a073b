"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import type { Alert } from "@/lib/schemas/alerts";
import { alertQueries } from "@/lib/queries/alerts";

/**
 * The user's alerts as they fire (`/api/alerts/stream`): each refreshes the inbox and the unread count and is handed
 * to `onAlert` (the toast). EventSource reconnects on its own; alerts fired meanwhile are in the inbox.
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
    const listener = (event: MessageEvent<string>) => {
      let alert: Alert;
      try {
        alert = JSON.parse(event.data) as Alert;
      } catch {
        return;
      }
      handler.current(alert);
      void client.invalidateQueries({ queryKey: alertQueries.all() });
    };
    source.addEventListener("alert", listener);
    return () => {
      source.removeEventListener("alert", listener);
      source.close();
    };
  }, [client]);
}
