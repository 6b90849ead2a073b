import "server-only";
import type { Alert } from "@/lib/schemas/alerts";
import { guardedPost, type PostResult } from "./guarded-post";
import { checkWebhookUrl, systemResolver, type Resolver, type WebhookAllowlist } from "./webhook-target";

/**
 * Webhook deliveries: a Slack-compatible JSON POST (`{"text": …}`, which Slack's incoming webhooks, Mattermost,
 * Discord's `/slack` endpoints and most chat tools accept), with the alert's fields beside it for scripts.
 *
 * - The address is checked on the connection itself (server/alerts/guarded-post.ts).
 * - Retries: network errors, 408, 429 and 5xx are retried after 1 s, 5 s and 30 s (a `Retry-After` up to 60 s
 *   wins); any other answer is final. Every attempt is written to the delivery log.
 * - No redirects are followed: a 3xx is final, since following it would bypass the address check.
 */

export const WEBHOOK_RETRY_DELAYS_MS = [1_000, 5_000, 30_000];

export interface DeliveryAttempt {
  alertId: string;
  channel: "webhook" | "push";
  /** The target without its path and query (which often hold a secret token). */
  target: string;
  attempt: number;
  ok: boolean;
  status: number | null;
  error: string | null;
  durationMs: number;
}

export interface DeliveryLog {
  record(attempt: DeliveryAttempt): Promise<void>;
}

export interface WebhookPayload {
  text: string;
  alert: Alert;
  link: string | null;
}

export function webhookPayload(alert: Alert, link: string | null): WebhookPayload {
  const quote = alert.text.replace(/\s+/g, " ").trim();
  const where = link ? ` <${link}|Open in Callroom>` : "";
  return { text: `*${alert.symbol}* (${alert.kind}): “${quote}”${where}`, alert, link };
}

export interface WebhookSenderOptions {
  allowlist: WebhookAllowlist;
  log: DeliveryLog;
  resolve?: Resolver;
  retryDelaysMs?: readonly number[];
  sleep?: (ms: number) => Promise<void>;
  timeoutMs?: number;
}

export class WebhookSender {
  private readonly resolve: Resolver;
  private readonly retryDelaysMs: readonly number[];
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: WebhookSenderOptions) {
    this.resolve = options.resolve ?? systemResolver;
    this.retryDelaysMs = options.retryDelaysMs ?? WEBHOOK_RETRY_DELAYS_MS;
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms).unref()));
  }

  /** Delivers with retries; resolves to whether some attempt was accepted (2xx). Never throws. */
  async deliver(rawUrl: string, payload: WebhookPayload): Promise<boolean> {
    let target: ReturnType<typeof checkWebhookUrl>;
    try {
      target = checkWebhookUrl(rawUrl, this.options.allowlist);
    } catch (error) {
      await this.record(
        payload,
        safeTarget(rawUrl),
        1,
        { status: null, error: message(error), retryAfterMs: null, refused: true },
        0,
      );
      return false;
    }
    const body = JSON.stringify(payload);
    const maxAttempts = this.retryDelaysMs.length + 1;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const started = performance.now();
      const result = await guardedPost(target.url, body, {
        allowlisted: target.allowlisted,
        resolve: this.resolve,
        headers: { "Content-Type": "application/json", "User-Agent": "Callroom-Alerts/1" },
        timeoutMs: this.options.timeoutMs,
      });
      await this.record(payload, target.url.origin, attempt, result, performance.now() - started);
      if (result.status !== null && result.status >= 200 && result.status < 300) return true;
      if (!isRetryable(result) || attempt === maxAttempts) return false;
      const delay = Math.max(this.retryDelaysMs[attempt - 1]!, Math.min(result.retryAfterMs ?? 0, 60_000));
      await this.sleep(delay);
    }
    return false;
  }

  private async record(
    payload: WebhookPayload,
    target: string,
    attempt: number,
    result: PostResult,
    durationMs: number,
  ): Promise<void> {
    await this.options.log
      .record({
        alertId: payload.alert.id,
        channel: "webhook",
        target,
        attempt,
        ok: result.status !== null && result.status >= 200 && result.status < 300,
        status: result.status,
        error: result.error,
        durationMs: Math.round(durationMs),
      })
      .catch(() => {});
  }
}

function isRetryable(result: PostResult): boolean {
  if (result.refused) return false;
  if (result.status === null) return true;
  return result.status === 408 || result.status === 429 || result.status >= 500;
}

function safeTarget(raw: string): string {
  try {
    return new URL(raw).origin;
  } catch {
    return "(invalid URL)";
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
