import "server-only";
import { alertDetailsLine, alertRulesLine } from "@/lib/alerts/display";
import type { Alert } from "@/lib/schemas/alerts";
import { DeliveryQueue } from "./delivery-queue";
import { guardedPost, type PostResult } from "./guarded-post";
import { checkWebhookUrl, systemResolver, type Resolver, type WebhookAllowlist } from "./webhook-target";

/**
 * Webhook deliveries: a Slack-compatible JSON POST (`{"text": …}`, which Slack's incoming webhooks, Mattermost,
 * Discord's `/slack` endpoints and most chat tools accept), with the alert's fields beside it for scripts.
 *
 * - The address is checked on the connection itself, and each attempt has one overall deadline
 *   (server/alerts/guarded-post.ts).
 * - Every attempt waits in the delivery queue (server/alerts/delivery-queue.ts): at most 10 in flight per user and
 *   per host, the rest queued (bounded); deleting a rule cancels its deliveries, queued or running.
 * - One POST per URL per subject (sentence, results record): deliveries to a URL about the same sentence while one
 *   is queued or running share it, and each alert's delivery log records its attempts.
 * - Retries: network errors, 408, 429 and 5xx are retried after 1 s, 5 s and 30 s (a `Retry-After` up to 60 s
 *   wins), waiting in the queue without holding a slot; any other answer is final. Every attempt is written to the
 *   delivery log.
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

/**
 * Slack's control characters (`&`, `<`, `>`) escaped as Slack asks, so a sentence cannot turn into a link, a user
 * mention or `<!channel>` in the receiving channel.
 */
export function slackEscape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function webhookPayload(alert: Alert, link: string | null): WebhookPayload {
  const quote = slackEscape(alert.text.replace(/\s+/g, " ").trim());
  const where = link ? ` <${link}|Open in Callroom>` : "";
  const details = alertDetailsLine(alert);
  return {
    text: `*${alert.symbol}* · ${slackEscape(alertRulesLine(alert))}: “${quote}”${details ? ` (${slackEscape(details)})` : ""}${where}`,
    alert,
    link,
  };
}

export interface WebhookSenderOptions {
  allowlist: WebhookAllowlist;
  log: DeliveryLog;
  resolve?: Resolver;
  retryDelaysMs?: readonly number[];
  /** Overall deadline of one attempt, body included (default 10 s, at most 30 s: server/alerts/guarded-post.ts). */
  deadlineMs?: number;
  /** The queue deliveries wait in (per-user and per-host concurrency, bounded). */
  queue?: DeliveryQueue;
  now?: () => number;
}

/** Who a delivery is for and what it is about. */
export interface WebhookContext {
  /** The user whose alert it is (the per-user concurrency cap). */
  user: string;
  /** The rules naming this URL: the delivery is cancelled once every one of them is deleted. */
  ruleIds: readonly string[];
  /**
   * What the POST is about (call and sentence, or the results record): deliveries to the same URL about the same
   * thing while one is queued or running are one POST (several rules, or several users' alerts on one channel).
   */
  about: string;
}

/** Delay before retry number `attempt` (1-based): the schedule, or the target's `Retry-After` up to 60 s. */
export function retryDelay(delays: readonly number[], attempt: number, retryAfterMs: number | null): number {
  return Math.max(delays[attempt - 1]!, Math.min(retryAfterMs ?? 0, 60_000));
}

interface Pending {
  target: ReturnType<typeof checkWebhookUrl>;
  body: string;
  alertIds: string[];
  owners: Set<string>;
  result: Promise<boolean>;
  settle: (ok: boolean) => void;
}

export class WebhookSender {
  private readonly resolve: Resolver;
  private readonly retryDelaysMs: readonly number[];
  readonly queue: DeliveryQueue;
  private readonly now: () => number;
  /** Deliveries queued or running, by URL and subject: the "one POST per URL per sentence" rule. */
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly options: WebhookSenderOptions) {
    this.resolve = options.resolve ?? systemResolver;
    this.retryDelaysMs = options.retryDelaysMs ?? WEBHOOK_RETRY_DELAYS_MS;
    this.queue = options.queue ?? new DeliveryQueue();
    this.now = options.now ?? Date.now;
  }

  /**
   * Queues a delivery with retries; resolves to whether some attempt was accepted (2xx) once it is over (accepted,
   * refused, out of retries, dropped or cancelled). Never throws.
   */
  async deliver(rawUrl: string, payload: WebhookPayload, context?: WebhookContext): Promise<boolean> {
    let target: ReturnType<typeof checkWebhookUrl>;
    try {
      target = checkWebhookUrl(rawUrl, this.options.allowlist);
    } catch (error) {
      await this.record(
        [payload.alert.id],
        safeTarget(rawUrl),
        1,
        { status: null, error: message(error), retryAfterMs: null, refused: true },
        0,
      );
      return false;
    }
    const ruleIds = context?.ruleIds ?? [payload.alert.ruleId];
    const key = `${target.url.href}\u0000${context?.about ?? `alert:${payload.alert.id}`}`;
    const joined = this.pending.get(key);
    if (joined) {
      joined.alertIds.push(payload.alert.id);
      for (const id of ruleIds) joined.owners.add(`rule:${id}`);
      return joined.result;
    }
    let settle!: (ok: boolean) => void;
    const entry: Pending = {
      target,
      body: JSON.stringify(payload),
      alertIds: [payload.alert.id],
      owners: new Set(ruleIds.map((id) => `rule:${id}`)),
      result: new Promise<boolean>((r) => (settle = r)),
      settle: (ok) => {
        this.pending.delete(key);
        settle(ok);
      },
    };
    this.pending.set(key, entry);
    this.attempt(entry, context?.user ?? "", 1, undefined);
    return entry.result;
  }

  /** Cancels the deliveries of deleted rules (waiting ones dropped, running ones aborted). */
  cancelRules(ruleIds: Iterable<string>): number {
    return this.queue.release([...ruleIds].map((id) => `rule:${id}`));
  }

  stop(): Promise<void> {
    return this.queue.stop();
  }

  private attempt(entry: Pending, user: string, attempt: number, notBefore: number | undefined): void {
    const maxAttempts = this.retryDelaysMs.length + 1;
    const { target } = entry;
    this.queue.push({
      user,
      host: target.url.host,
      owners: entry.owners,
      notBefore,
      dropped: (reason) => {
        void this.record(
          entry.alertIds,
          target.url.origin,
          attempt,
          { status: null, error: reason, retryAfterMs: null, refused: true },
          0,
        ).then(() => entry.settle(false));
      },
      run: async (signal) => {
        const started = performance.now();
        const result = await guardedPost(target.url, entry.body, {
          allowlisted: target.allowlisted,
          resolve: this.resolve,
          headers: { "Content-Type": "application/json", "User-Agent": "Callroom-Alerts/1" },
          deadlineMs: this.options.deadlineMs,
          signal,
        });
        await this.record(entry.alertIds, target.url.origin, attempt, result, performance.now() - started);
        if (result.status !== null && result.status >= 200 && result.status < 300) return entry.settle(true);
        if (!isRetryable(result) || attempt === maxAttempts) return entry.settle(false);
        const delay = retryDelay(this.retryDelaysMs, attempt, result.retryAfterMs);
        this.attempt(entry, user, attempt + 1, this.now() + delay);
      },
    });
  }

  private async record(
    alertIds: readonly string[],
    target: string,
    attempt: number,
    result: PostResult,
    durationMs: number,
  ): Promise<void> {
    await Promise.all(
      alertIds.map((alertId) =>
        this.options.log
          .record({
            alertId,
            channel: "webhook",
            target,
            attempt,
            ok: result.status !== null && result.status >= 200 && result.status < 300,
            status: result.status,
            error: result.error,
            durationMs: Math.round(durationMs),
          })
          .catch(() => {}),
      ),
    );
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
