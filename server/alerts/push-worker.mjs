// Web Push encryption and VAPID signing, in a worker thread (piscina): a few milliseconds of CPU per message that
// must not run on the event loop serving live streams (server/alerts/push.ts, docs/workspace.md). Plain JavaScript
// outside the bundle: Next does not build worker entry points, and this file needs nothing of the app.
import { threadId } from "node:worker_threads";
import webpush from "web-push";

/** One message: `{ subscription, payload, options }` → the request's headers and encrypted body (and the thread). */
export default function encrypt({ subscription, payload, options }) {
  const details = webpush.generateRequestDetails(subscription, payload, options);
  return { headers: details.headers, body: details.body ? new Uint8Array(details.body) : null, threadId };
}
