/*
 * Callroom's service worker: shows alerts pushed while no Callroom tab is open (Web Push, see
 * server/alerts/push.ts) and opens the call room at the alert's moment when one is clicked. The tag is the alert's,
 * as for the notifications an open tab shows, so one alert never shows twice.
 */
self.addEventListener("push", (event) => {
  let message = { title: "Callroom alert", body: "", url: "/alerts", alertId: "" };
  try {
    message = { ...message, ...event.data.json() };
  } catch {
    // A push without our JSON still gets a notification: browsers require one for every push.
  }
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body,
      tag: message.alertId ? `alert-${message.alertId}` : undefined,
      data: { url: message.url || "/alerts" },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || "/alerts", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((clients) => {
      const open = clients.find((c) => c.url.startsWith(self.location.origin));
      if (open) return open.navigate(url).then((c) => c?.focus());
      return self.clients.openWindow(url);
    }),
  );
});
