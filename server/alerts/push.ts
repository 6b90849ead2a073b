import "server-only";
import webpush from "web-push";
import { z } from "zod";
import { alertDetailsLine, alertRulesLine } from "@/lib/alerts/display";
import type { Alert } from "@/lib/schemas/alerts";
import { AppError } from "../errors";
import { DeliveryQueue } from "./delivery-queue";
import { guardedPost } from "./guarded-post";
import type { DeliveryLog } from "./webhook";
import { systemResolver, type Resolver, type WebhookAllowlist, type WebhookTarget } from "./webhook-target";

/**
 * Web Push, for tabs that are closed: the payload is encrypted for the browser's subscription (RFC 8291,
 * `aes128gcm`) and signed with our VAPID key (RFC 8292) by the `web-push` library; the request itself goes out
 * through `guardedPost`, since a subscription's endpoint comes from the browser and is as untrusted as a webhook
 * URL.
 *
 * - Endpoints: only the browsers' push services (`KNOWN_PUSH_SERVICES`: Google's FCM, Mozilla's, Apple's,
 *   Microsoft's), https on 443, unless `CALLROOM_PUSH_ALLOWLIST` names the host (which also lifts the https and
 *   address rules: an in-house or test push service). At most `MAX_PUSH_SUBSCRIPTIONS` per user (server/alerts/store.ts).
 * - One user's 1,000 subscriptions and a rule on "the" once froze the server (encryption is a few milliseconds of
 *   CPU per message, and every message went out at once). Now every message waits in a bounded delivery queue
 *   (server/alerts/delivery-queue.ts: per-user and per-host concurrency), and the encryption and signing run in a
 *   worker thread (`encrypt`, server/alerts/push-worker.mjs), off the event loop that serves streams.
 * - VAPID keys are generated at first start and stored (`VapidKeyStore`), so subscriptions survive restarts and
 *   every instance signs with the same key; `CALLROOM_VAPID_PUBLIC_KEY` and `CALLROOM_VAPID_PRIVATE_KEY` supply them
 *   from the environment instead (the private key then never enters the database).
 * - A 404 or 410 from the push service means the subscription is gone: it is removed.
 */

export const MAX_PUSH_SUBSCRIPTIONS = 20;

/** The browsers' push services, by host name (a leading dot: any subdomain). */
export const KNOWN_PUSH_SERVICES = [
  "fcm.googleapis.com",
  "push.services.mozilla.com",
  ".push.services.mozilla.com",
  ".push.apple.com",
  ".notify.windows.com",
] as const;

function isKnownPushService(host: string): boolean {
  return KNOWN_PUSH_SERVICES.some((known) => (known.startsWith(".") ? host.endsWith(known) : host === known));
}

/**
 * Where a subscription may point: a known push service over https on 443, or a host `CALLROOM_PUSH_ALLOWLIST`
 * names. Throws a 400 saying why.
 */
export function checkPushEndpoint(raw: string, allowlist: WebhookAllowlist): WebhookTarget {
  const refuse = (why: string) => new AppError("invalid_parameter", `endpoint ${why}`);
  if (!URL.canParse(raw)) throw refuse("must be an absolute https URL");
  const url = new URL(raw);
  if (url.protocol !== "https:" && url.protocol !== "http:") throw refuse("must be an https URL");
  if (url.username || url.password) throw refuse("must not carry credentials");
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, "");
  const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  if (allowlist.allows(host, port)) return { url, host, port, allowlisted: true };
  if (url.protocol !== "https:" || port !== 443 || !isKnownPushService(host))
    throw refuse(
      "must be a browser's push service (fcm.googleapis.com, Mozilla's, Apple's or Microsoft's), over https",
    );
  return { url, host, port, allowlisted: false };
}

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export interface VapidKeyStore {
  load(): Promise<VapidKeys | null>;
  /** Stores `keys` unless keys exist already; returns the stored keys (another instance may have won the race). */
  saveIfAbsent(keys: VapidKeys): Promise<VapidKeys>;
}

/**
 * `CALLROOM_VAPID_PUBLIC_KEY` and `CALLROOM_VAPID_PRIVATE_KEY` (base64url, as `npx web-push generate-vapid-keys`
 * prints them; read by server/config.ts): the key pair from the environment (a secret store) instead of the
 * database. Both or neither; a
 * malformed or half-given pair throws rather than silently falling back to the database's keys.
 */
export function vapidKeysFrom(configured: {
  publicKey: string | undefined;
  privateKey: string | undefined;
}): VapidKeys | null {
  const { publicKey, privateKey } = configured;
  if (!publicKey && !privateKey) return null;
  if (!publicKey || !privateKey)
    throw new Error(
      "CALLROOM_VAPID_PUBLIC_KEY and CALLROOM_VAPID_PRIVATE_KEY go together: set both or neither",
    );
  const bytes = (key: string) => (/^[A-Za-z0-9_-]+=*$/.test(key) ? Buffer.from(key, "base64url").length : -1);
  if (bytes(publicKey) !== 65)
    throw new Error("CALLROOM_VAPID_PUBLIC_KEY must be a base64url P-256 public key");
  if (bytes(privateKey) !== 32)
    throw new Error("CALLROOM_VAPID_PRIVATE_KEY must be a base64url P-256 private key");
  return { publicKey, privateKey };
}

export async function ensureVapidKeys(store: VapidKeyStore): Promise<VapidKeys> {
  const existing = await store.load();
  if (existing) return existing;
  const generated = webpush.generateVAPIDKeys();
  return store.saveIfAbsent({ publicKey: generated.publicKey, privateKey: generated.privateKey });
}

const base64url = z.string().regex(/^[A-Za-z0-9_-]+={0,2}$/, "must be base64url");

/** A browser's `PushSubscription.toJSON()`. */
export const pushSubscriptionSchema = z.object({
  endpoint: z
    .string()
    .max(2000)
    .refine((s) => URL.canParse(s), { message: "endpoint must be an absolute URL" }),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: base64url.max(200), auth: base64url.max(100) }),
});
export type PushSubscriptionJson = z.infer<typeof pushSubscriptionSchema>;

export interface StoredPushSubscription {
  id: string;
  subscription: PushSubscriptionJson;
}

/** The encrypted, signed request for one subscription (web-push's `generateRequestDetails`, in a worker). */
export interface EncryptedPush {
  headers: Record<string, string | number>;
  body: Uint8Array | null;
  /** The thread that did the work (0: the main thread). */
  threadId?: number;
}

export interface EncryptRequest {
  subscription: PushSubscriptionJson;
  payload: string;
  options: { TTL: number; urgency: "high"; vapidDetails: { subject: string } & VapidKeys };
}

export type PushEncrypt = (request: EncryptRequest) => Promise<EncryptedPush>;

/** On the calling thread: tests, and the fallback should the worker not start. */
export const encryptInThread: PushEncrypt = async ({ subscription, payload, options }) => {
  const details = webpush.generateRequestDetails(subscription, payload, options);
  return { headers: details.headers as Record<string, string | number>, body: details.body };
};

export interface PushSenderOptions {
  keys: VapidKeys;
  /** `mailto:` or `https:` contact the push service may use (RFC 8292 `sub`). */
  subject: string;
  /** `CALLROOM_PUSH_ALLOWLIST`: hosts accepted beside the known push services. */
  allowlist: WebhookAllowlist;
  log: DeliveryLog;
  /** Called when the push service says a subscription no longer exists. */
  onGone: (subscriptionId: string) => Promise<void>;
  resolve?: Resolver;
  ttlSeconds?: number;
  /** Encrypts and signs one message (default: on this thread; the workspace passes the worker's). */
  encrypt?: PushEncrypt;
  queue?: DeliveryQueue;
  deadlineMs?: number;
}

/** Push deliveries' concurrency: push services are few and shared by every user, so more per host than webhooks. */
export const PUSH_QUEUE_LIMITS = {
  perUser: 10,
  perHost: 40,
  total: 40,
  maxQueued: 4_000,
  maxQueuedPerUser: 200,
};

/** What the service worker (public/sw.js) shows. */
export interface PushMessage {
  title: string;
  body: string;
  url: string | null;
  alertId: string;
}

export function pushMessage(alert: Alert, url: string | null): PushMessage {
  return {
    title: `${alert.symbol}: ${alertRulesLine(alert)}`,
    body: [alert.text, alertDetailsLine(alert)].filter(Boolean).join("\n"),
    url,
    alertId: alert.id,
  };
}

export class PushSender {
  private readonly resolve: Resolver;
  private readonly encrypt: PushEncrypt;
  readonly queue: DeliveryQueue;

  constructor(private readonly options: PushSenderOptions) {
    this.resolve = options.resolve ?? systemResolver;
    this.encrypt = options.encrypt ?? encryptInThread;
    this.queue = options.queue ?? new DeliveryQueue(PUSH_QUEUE_LIMITS);
  }

  get publicKey(): string {
    return this.options.keys.publicKey;
  }

  /**
   * Queues one message for one subscription (one attempt: push services queue on their side); resolves to whether
   * the service accepted it, once it is over. Never throws. `user` and `ruleIds` place it in the queue: the user's
   * concurrency, and cancelled once every rule is deleted.
   */
  send(
    stored: StoredPushSubscription,
    message: PushMessage,
    context: { user: string; ruleIds: readonly string[] } = { user: "", ruleIds: [] },
  ): Promise<boolean> {
    let target: WebhookTarget;
    try {
      target = checkPushEndpoint(stored.subscription.endpoint, this.options.allowlist);
    } catch (error) {
      return this.log(message, originOf(stored.subscription.endpoint), false, null, errorText(error), 0).then(
        () => false,
      );
    }
    return new Promise<boolean>((resolve) => {
      this.queue.push({
        user: context.user,
        host: target.url.host,
        owners: new Set(context.ruleIds.map((id) => `rule:${id}`)),
        dropped: (reason) =>
          void this.log(message, target.url.origin, false, null, reason, 0).then(() => resolve(false)),
        run: async (signal) => resolve(await this.attempt(stored, target, message, signal)),
      });
    });
  }

  cancelRules(ruleIds: Iterable<string>): number {
    return this.queue.release([...ruleIds].map((id) => `rule:${id}`));
  }

  stop(): Promise<void> {
    return this.queue.stop();
  }

  private async attempt(
    stored: StoredPushSubscription,
    target: WebhookTarget,
    message: PushMessage,
    signal: AbortSignal,
  ): Promise<boolean> {
    const started = performance.now();
    const elapsed = () => performance.now() - started;
    try {
      const details = await this.encrypt({
        subscription: stored.subscription,
        payload: JSON.stringify(message),
        options: {
          TTL: this.options.ttlSeconds ?? 3_600,
          urgency: "high",
          vapidDetails: { subject: this.options.subject, ...this.options.keys },
        },
      });
      const result = await guardedPost(target.url, details.body ? Buffer.from(details.body) : "", {
        allowlisted: target.allowlisted,
        resolve: this.resolve,
        headers: details.headers,
        deadlineMs: this.options.deadlineMs,
        signal,
      });
      const ok = result.status !== null && result.status >= 200 && result.status < 300;
      await this.log(message, target.url.origin, ok, result.status, result.error, elapsed());
      if (result.status === 404 || result.status === 410)
        await this.options.onGone(stored.id).catch(() => {});
      return ok;
    } catch (error) {
      await this.log(message, target.url.origin, false, null, errorText(error), elapsed());
      return false;
    }
  }

  private log(
    message: PushMessage,
    target: string,
    ok: boolean,
    status: number | null,
    error: string | null,
    durationMs: number,
  ): Promise<void> {
    return this.options.log
      .record({
        alertId: message.alertId,
        channel: "push",
        target,
        attempt: 1,
        ok,
        status,
        error,
        durationMs: Math.round(durationMs),
      })
      .catch(() => {});
  }
}

function originOf(raw: string): string {
  return URL.canParse(raw) ? new URL(raw).origin : "(invalid URL)";
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
