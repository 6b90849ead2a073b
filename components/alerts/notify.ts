"use client";

import { alertDetailsLine, alertPath, alertRulesLine } from "@/lib/alerts/display";
import type { Alert } from "@/lib/schemas/alerts";

/**
 * A system notification for an alert, when the user allowed them. The tag is the alert's, the same the service
 * worker uses for a push (public/sw.js), so an open tab and a push of the same alert show one notification.
 */
export function notifyAlert(alert: Alert, onOpen: (path: string) => void): void {
  if (typeof Notification === "undefined" || Notification.permission !== "granted") return;
  try {
    const notification = new Notification(`${alert.symbol}: ${alertRulesLine(alert)}`, {
      body: [alert.text, alertDetailsLine(alert)].filter(Boolean).join("\n"),
      tag: `alert-${alert.id}`,
    });
    notification.onclick = () => {
      window.focus();
      onOpen(alertPath(alert));
      notification.close();
    };
  } catch {
    // Some browsers (Android Chrome) only allow notifications from a service worker; the toast still shows.
  }
}
