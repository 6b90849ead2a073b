"use client";

import { useEffect, useState, useSyncExternalStore } from "react";
import { Button } from "@/components/ui/button";
import { fetchJson } from "@/lib/queries/fetch-json";
import { sendJson } from "@/lib/queries/send-json";

type State = "unsupported" | "default" | "denied" | "granted";

const readPermission = (): State =>
  typeof Notification === "undefined" ? "unsupported" : (Notification.permission as State);

/** The permission is browser state: re-read it when the browser says it changed (or after we asked). */
const permissionListeners = new Set<() => void>();
function subscribePermission(onChange: () => void): () => void {
  permissionListeners.add(onChange);
  let status: PermissionStatus | null = null;
  void navigator.permissions
    ?.query({ name: "notifications" })
    .then((s) => {
      status = s;
      s.addEventListener("change", onChange);
    })
    .catch(() => {});
  return () => {
    permissionListeners.delete(onChange);
    status?.removeEventListener("change", onChange);
  };
}

function urlBase64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  const padded = (base64 + "=".repeat((4 - (base64.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/**
 * Browser notifications: permission for the open tabs, and a Web Push subscription (through the service worker,
 * public/sw.js) so alerts still arrive when every Callroom tab is closed.
 */
export function NotificationSettings() {
  // The server renders what most browsers show on a first visit (permission not asked yet), so hydration moves
  // nothing below the page's header; the browser's real state replaces it at once (docs/performance.md).
  const state = useSyncExternalStore(subscribePermission, readPermission, () => "default" as const);
  const [isPushOn, setPushOn] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => {
    if ("serviceWorker" in navigator)
      void navigator.serviceWorker
        .getRegistration("/")
        .then(async (reg) => setPushOn(Boolean(await reg?.pushManager.getSubscription())));
  }, []);

  const enable = async () => {
    setMessage(null);
    const permission = await Notification.requestPermission();
    for (const listener of permissionListeners) listener();
    if (permission !== "granted") return;
    if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
      setMessage(
        "Notifications show while a Callroom tab is open; this browser cannot receive them when closed.",
      );
      return;
    }
    try {
      const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
      await navigator.serviceWorker.ready;
      const { data } = await fetchJson<{ data: { publicKey: string } }>("/api/alerts/push");
      const subscription =
        (await registration.pushManager.getSubscription()) ??
        (await registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: urlBase64ToBytes(data.publicKey),
        }));
      await sendJson("POST", "/api/alerts/push", subscription.toJSON());
      setPushOn(true);
    } catch (error) {
      setMessage(`Push could not be enabled: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const disable = async () => {
    const registration = await navigator.serviceWorker.getRegistration("/");
    const subscription = await registration?.pushManager.getSubscription();
    if (subscription) {
      await sendJson("DELETE", "/api/alerts/push", { endpoint: subscription.endpoint }).catch(() => {});
      await subscription.unsubscribe();
    }
    setPushOn(false);
  };

  if (state === "unsupported")
    return <p className="text-muted text-[13px]">This browser does not support notifications.</p>;
  return (
    <div className="flex flex-wrap items-center gap-2 text-[13px]" data-testid="notification-settings">
      {state === "granted" ? (
        <span>
          Notifications are on{isPushOn ? ", also when Callroom is closed" : " while a Callroom tab is open"}.
        </span>
      ) : state === "denied" ? (
        <span className="text-muted">Notifications are blocked in this browser’s site settings.</span>
      ) : (
        <span className="text-muted">Get a system notification for each alert.</span>
      )}
      {state !== "denied" && !isPushOn ? (
        <Button onClick={() => void enable()}>
          {state === "granted" ? "Also when closed" : "Enable notifications"}
        </Button>
      ) : null}
      {isPushOn ? (
        <Button variant="ghost" onClick={() => void disable()}>
          Stop push
        </Button>
      ) : null}
      {message ? <span className="text-muted w-full">{message}</span> : null}
    </div>
  );
}
