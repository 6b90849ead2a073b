import "server-only";
import webpush from "web-push";
import { z } from "zod";
import type { Alert } from "@/lib/schemas/alerts";
import { guardedPost } from "./guarded-post";
import type { DeliveryLog } from "./webhook";
import { checkWebhookUrl, systemResolver, type Resolver, type WebhookAllowlist } from "./webhook-target";

/**
 * Web Push, for tabs that are closed: the payload is encrypted for the browser's subscription (RFC 8291,
 * `aes128gcm`) and signed with our VAPID key (RFC 8292) by the `web-push` library; the request itself goes out
 * through `guardedPost`, since a subscription's endpoint comes from the browser and is as untrusted as a webhook
 * URL (https and public only, unless `CALLROOM_WEBHOOK_ALLOWLIST` names the host).
 *
 * VAPID keys are generated at first start and stored (`VapidKeyStore`), so subscriptions survive restarts and every
 * instance signs with the same key. A 404 or 410 from the push service means the subscription is gone: it is
 * removed.
 */

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export interface VapidKeyStore {
  load(): Promise<VapidKeys | null>;
  /** Stores `keys` unless keys exist already; returns the stored keys (another instance may have won the race). */
  saveIfAbsent(keys: VapidKeys): Promise<VapidKeys>;
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

export interface PushSenderOptions {
  keys: VapidKeys;
  /** `mailto:` or `https:` contact the push service may use (RFC 8292 `sub`). */
  subject: string;
  allowlist: WebhookAllowlist;
  log: DeliveryLog;
  /** Called when the push service says a subscription no longer exists. */
  onGone: (subscriptionId: string) => Promise<void>;
  resolve?: Resolver;
  ttlSeconds?: number;
}

/** What the service worker (public/sw.js) shows. */
export interface PushMessage {
  title: string;
  body: string;
  url: string | null;
  alertId: string;
}

export function pushMessage(alert: Alert, url: string | null): PushMessage {
  return {
    title: `${alert.symbol}: ${alert.kind === "keyword" ? "said on the call" : alert.kind}`,
    body: alert.text,
    url,
    alertId: alert.id,
  };
}

export class PushSender {
  private readonly resolve: Resolver;

  constructor(private readonly options: PushSenderOptions) {
    this.resolve = options.resolve ?? systemResolver;
  }

  get publicKey(): string {
    return this.options.keys.publicKey;
  }

  /** One attempt (push services queue on their side); resolves to whether the service accepted it. Never throws. */
  async send(stored: StoredPushSubscription, message: PushMessage): Promise<boolean> {
    const started = performance.now();
    let origin = "(invalid URL)";
    const log = async (ok: boolean, status: number | null, error: string | null) =>
      this.options.log
        .record({
          alertId: message.alertId,
          channel: "push",
          target: origin,
          attempt: 1,
          ok,
          status,
          error,
          durationMs: Math.round(performance.now() - started),
        })
        .catch(() => {});
    try {
      const target = checkWebhookUrl(stored.subscription.endpoint, this.options.allowlist);
      origin = target.url.origin;
      const details = webpush.generateRequestDetails(stored.subscription, JSON.stringify(message), {
        TTL: this.options.ttlSeconds ?? 3_600,
        urgency: "high",
        vapidDetails: { subject: this.options.subject, ...this.options.keys },
      });
      const result = await guardedPost(target.url, details.body, {
        allowlisted: target.allowlisted,
        resolve: this.resolve,
        headers: details.headers as Record<string, string | number>,
      });
      const ok = result.status !== null && result.status >= 200 && result.status < 300;
      await log(ok, result.status, result.error);
      if (result.status === 404 || result.status === 410)
        await this.options.onGone(stored.id).catch(() => {});
      return ok;
    } catch (error) {
      await log(false, null, error instanceof Error ? error.message : String(error));
      return false;
    }
  }
}
