import "server-only";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import type { Alert } from "@/lib/schemas/alerts";
import {
  checkWebhookUrl,
  isNonPublicAddress,
  systemResolver,
  type Resolver,
  type WebhookAllowlist,
} from "./webhook-target";

/**
 * Webhook deliveries: a Slack-compatible JSON POST (`{"text": …}`, which Slack's incoming webhooks, Mattermost,
 * Discord's `/slack` endpoints and most chat tools accept), with the alert's fields beside it for scripts.
 *
 * - The address is checked on the connection itself (a `lookup` that refuses non-public answers), so a name that
 *   resolves inwards between saving the rule and delivering cannot reach inside (DNS rebinding).
 * - Retries: network errors, 408, 429 and 5xx are retried after 1 s, 5 s and 30 s (a `Retry-After` up to 60 s
 *   wins); any other answer is final. Every attempt is written to the delivery log.
 * - No redirects are followed: a 3xx is final, since following it would bypass the address check.
 */

export const WEBHOOK_RETRY_DELAYS_MS = [1_000, 5_000, 30_000];
const TIMEOUT_MS = 10_000;

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

interface PostResult {
  status: number | null;
  error: string | null;
  retryAfterMs: number | null;
  /** The address check refused the connection: retrying cannot help. */
  refused?: boolean;
}

const REFUSED = "ECALLROOM_REFUSED";

function refusal(text: string): NodeJS.ErrnoException {
  return Object.assign(new Error(text), { code: REFUSED });
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
        { status: null, error: message(error), retryAfterMs: null },
        0,
      );
      return false;
    }
    const body = JSON.stringify(payload);
    const maxAttempts = this.retryDelaysMs.length + 1;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const started = performance.now();
      const result = await this.post(target.url, target.allowlisted, body);
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

  private post(url: URL, allowlisted: boolean, body: string): Promise<PostResult> {
    const lookup: LookupFunction = (hostname, options, callback) => {
      this.resolve(hostname).then(
        (addresses) => {
          const address = addresses[0];
          if (address === undefined) return callback(new Error(`${hostname} does not resolve`), "", 4);
          if (!allowlisted && addresses.some(isNonPublicAddress))
            return callback(refusal(`${hostname} resolves to a non-public address`), "", 4);
          const family = isIP(address) || 4;
          if ((options as { all?: boolean }).all)
            return (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(
              null,
              [{ address, family }],
            );
          callback(null, address, family);
        },
        (error: unknown) => callback(error as NodeJS.ErrnoException, "", 4),
      );
    };
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    return new Promise<PostResult>((resolve) => {
      const req = send(
        url,
        {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            "Content-Length": Buffer.byteLength(body),
            "User-Agent": "Callroom-Alerts/1",
          },
          lookup,
          timeout: this.options.timeoutMs ?? TIMEOUT_MS,
        },
        (res: IncomingMessage) => {
          res.resume();
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? null,
              error: null,
              retryAfterMs: retryAfterMs(res.headers["retry-after"]),
            }),
          );
          res.on("error", (error) =>
            resolve({ status: res.statusCode ?? null, error: error.message, retryAfterMs: null }),
          );
        },
      );
      req.on("timeout", () => req.destroy(new Error("timed out")));
      req.on("error", (error: NodeJS.ErrnoException) =>
        resolve({ status: null, error: error.message, retryAfterMs: null, refused: error.code === REFUSED }),
      );
      req.end(body);
    });
  }
}

function isRetryable(result: PostResult): boolean {
  if (result.refused) return false;
  if (result.status === null) return true;
  return result.status === 408 || result.status === 429 || result.status >= 500;
}

function retryAfterMs(header: string | undefined): number | null {
  if (!header) return null;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null;
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
