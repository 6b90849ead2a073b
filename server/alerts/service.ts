import "server-only";
import type { Logger } from "pino";
import { alertPath } from "@/lib/alerts/display";
import type { LiveBus, LiveEvent } from "../live/bus";
import type { AlertBus } from "./bus";
import { AlertEvaluator, type EarningsActuals } from "./evaluator";
import { MuteIndex, type ActiveMute } from "./mutes";
import { pushMessage, type PushSender, type StoredPushSubscription } from "./push";
import type { AlertCandidate, CompiledRule } from "./rules";
import type { RecordedFiring } from "./store";
import { webhookPayload, type WebhookSender } from "./webhook";

/**
 * The alert engine wired to the live events: it subscribes to the live bus, evaluates on the leader only (alone, the
 * process is the leader), records each firing once and delivers what it recorded.
 *
 * - Every instance's live bus sees every event; only the instance whose `isLeader()` says so evaluates, so a sentence
 *   is evaluated once per deployment. Around a hand-over two instances may both evaluate an event: the store's
 *   unique index lets exactly one record it, and only the recorder delivers.
 * - Deliveries: the SSE `alert` event (through the bus, to whichever instance holds the user's tabs), then the
 *   rule's webhook and the user's push subscriptions, in the background so one slow webhook delays nobody.
 * - Results: the earnings calendar is polled with `updatedSince` (the upstream's `parameters[updated]`) from a
 *   stored cursor, so records that gained actuals while no one was leader are still seen.
 * - Rules and mutes are loaded at start and reloaded when the bus says they changed (and every `reloadMs` as a
 *   safety net). A muted user's candidate is dropped before it is recorded; when a call ends, the mutes that lasted
 *   until its end are lifted.
 * - A guidance match is described before it is recorded (`describeGuidance`: the figure against consensus, as the
 *   call room's Figures panel shows it), within `guidanceDetailMs`: an alert is never held longer for its detail.
 */

export interface AlertSource {
  /** Every user's rules with their scopes resolved, and the webhook URL of each rule that has one. */
  loadRules(): Promise<{ rules: CompiledRule[]; webhooks: Map<string, string> }>;
  /** Every user's mutes in force. */
  loadMutes(): Promise<ActiveMute[]>;
  /** Lifts the mutes that last until this call's end; returns how many. */
  endMutesOf(callId: string): Promise<number>;
  /** Records an event's firings (once each across every instance) and returns those this call recorded. */
  recordFirings(candidates: readonly AlertCandidate[]): Promise<RecordedFiring[]>;
  /** Where the results poll stopped (Unix seconds), kept across restarts. */
  loadResultsCursor(): Promise<number | null>;
  saveResultsCursor(seconds: number): Promise<void>;
}

export interface AlertServiceOptions {
  live: Pick<LiveBus, "subscribe">;
  isLeader: () => boolean;
  source: AlertSource;
  bus: AlertBus;
  webhooks: Pick<WebhookSender, "deliver" | "cancelRules" | "stop">;
  /** Resolved when push is available (the VAPID keys are loaded from the database). */
  push: () => Promise<PushSender | null>;
  /** The push subscriptions of the users an event alerted, in one read. */
  pushSubscriptionsOf: (userIds: readonly string[]) => Promise<Map<string, StoredPushSubscription[]>>;
  /** Earnings records updated since (Unix seconds); null = no results polling. */
  earningsUpdatedSince: ((seconds: number) => Promise<EarningsActuals[]>) | null;
  log: Pick<Logger, "info" | "warn" | "error">;
  /** Absolute origin for links in webhooks (`CALLROOM_PUBLIC_URL`); null = relative links only. */
  publicBaseUrl: string | null;
  /** What a guidance sentence says against consensus ("guides revenue 1.6% below consensus"), or null. */
  describeGuidance?: (candidate: AlertCandidate) => Promise<string | null>;
  guidanceDetailMs?: number;
  /** Pauses before each retry of a failed recording (default 0.25 s, 1 s, 4 s). */
  recordRetryMs?: readonly number[];
  resultsPollMs?: number;
  reloadMs?: number;
  now?: () => number;
}

export class AlertService {
  private evaluator = new AlertEvaluator([]);
  private mutes = new MuteIndex([]);
  private webhookUrls = new Map<string, string>();
  private unsubscribe: (() => void) | null = null;
  private offRules: (() => void) | null = null;
  private timers: NodeJS.Timeout[] = [];
  private loading: Promise<void> | null = null;
  private reloadAgain = false;
  private readonly pending = new Set<Promise<unknown>>();
  /** Pauses before each retry of a failed recording (then it is logged and given up). */
  private readonly recordRetryMs: readonly number[];
  private stopping = false;
  private readonly stopped = new AbortController();
  /** Known once a push went out; stopped (and its queue cancelled) with the service. */
  private pushSender: PushSender | null = null;
  private readonly now: () => number;

  constructor(private readonly options: AlertServiceOptions) {
    this.now = options.now ?? Date.now;
    this.recordRetryMs = options.recordRetryMs ?? [250, 1_000, 4_000];
  }

  start(): void {
    if (this.unsubscribe) return;
    this.unsubscribe = this.options.live.subscribe((event) => this.onEvent(event));
    this.offRules = this.options.bus.onRulesChanged(() => void this.reload());
    void this.reload();
    const reload = setInterval(() => void this.reload(), this.options.reloadMs ?? 60_000);
    reload.unref();
    this.timers.push(reload);
    if (this.options.earningsUpdatedSince) {
      const poll = setInterval(() => void this.pollResults(), this.options.resultsPollMs ?? 60_000);
      poll.unref();
      this.timers.push(poll);
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.stopped.abort();
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.offRules?.();
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    // Deliveries in flight are cut rather than awaited (a retry may be 30 s away): shutdown must not wait on a
    // target. Recordings in progress finish.
    await Promise.all([this.options.webhooks.stop(), this.pushSender?.stop()]);
    await this.idle();
  }

  /** Resolves when every recording and delivery started so far has finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  get ruleCount(): number {
    return this.evaluator.rules.length;
  }

  /** Reloads the rules; concurrent calls coalesce into at most one more load. */
  reload(): Promise<void> {
    if (this.loading) {
      this.reloadAgain = true;
      return this.loading;
    }
    this.loading = (async () => {
      do {
        this.reloadAgain = false;
        try {
          const [{ rules, webhooks }, mutes] = await Promise.all([
            this.options.source.loadRules(),
            this.options.source.loadMutes(),
          ]);
          const before = this.evaluator.rules;
          this.evaluator = this.evaluator.withRules(rules);
          this.webhookUrls = webhooks;
          this.mutes = new MuteIndex(mutes);
          // A deleted rule (or a removed user's) leaves none of its deliveries queued or open.
          const kept = new Set(rules.map((r) => r.id));
          const gone = before.filter((r) => !kept.has(r.id));
          if (gone.length > 0) {
            this.options.webhooks.cancelRules(gone.map((r) => r.id));
            this.pushSender?.cancelRules(gone.map((r) => r.id));
          }
        } catch (error) {
          this.options.log.warn({ err: error }, "alerts: could not load the rules");
        }
      } while (this.reloadAgain);
    })().finally(() => (this.loading = null));
    return this.loading;
  }

  private onEvent(event: LiveEvent): void {
    if (!this.options.isLeader()) return;
    let candidates: AlertCandidate[] = [];
    if (event.event === "sentence") candidates = this.evaluator.onSentence(event.symbol, event.data);
    else if (event.event === "call.started") candidates = this.evaluator.onCallStarted(event.data);
    else if (event.event === "call.status") {
      this.evaluator.onCallStatus(event.data);
      if (event.data.status !== "live" && this.mutes.endsWith(event.data.callId))
        this.track(this.endMutes(event.data.callId));
    }
    if (candidates.length > 0) this.track(this.fire(candidates).catch(() => {}));
  }

  private async endMutes(callId: string): Promise<void> {
    try {
      if ((await this.options.source.endMutesOf(callId)) > 0) await this.reload();
    } catch (error) {
      this.options.log.warn({ err: error, callId }, "alerts: could not lift the mutes of an ended call");
    }
  }

  /** Adds what a guidance sentence says against consensus to its guidance matches, within the time allowed. */
  private async describe(candidates: AlertCandidate[]): Promise<AlertCandidate[]> {
    const describeGuidance = this.options.describeGuidance;
    if (!describeGuidance || !candidates.some((c) => c.rules.some((r) => r.kind === "guidance")))
      return candidates;
    return Promise.all(
      candidates.map(async (candidate) => {
        if (!candidate.rules.some((r) => r.kind === "guidance" && r.detail === null)) return candidate;
        let timer: NodeJS.Timeout | undefined;
        const detail = await Promise.race([
          describeGuidance(candidate).catch((error: unknown) => {
            this.options.log.warn({ err: error }, "alerts: could not compare guidance with consensus");
            return null;
          }),
          new Promise<null>((resolve) => {
            timer = setTimeout(() => resolve(null), this.options.guidanceDetailMs ?? 1_500);
          }),
        ]).finally(() => clearTimeout(timer));
        if (!detail) return candidate;
        return {
          ...candidate,
          rules: candidate.rules.map((r) =>
            r.kind === "guidance" && r.detail === null ? { ...r, detail } : r,
          ),
        };
      }),
    );
  }

  /** Polls the earnings calendar once (the timer calls it; tests call it directly). */
  async pollResults(): Promise<void> {
    const fetchSince = this.options.earningsUpdatedSince;
    if (!fetchSince || !this.options.isLeader()) return;
    const nowSeconds = Math.floor(this.now() / 1000);
    try {
      const since = (await this.options.source.loadResultsCursor()) ?? nowSeconds;
      const records = await fetchSince(since);
      const candidates = this.evaluator.onEarnings(records);
      // The cursor moves only once the firings are recorded: should recording fail (after its retries), the next
      // poll reads the same records again, and the store's unique index keeps what was recorded once.
      if (candidates.length > 0) await this.fire(candidates);
      // A record updated in the same second as the poll is read again next time; the store dedupes it.
      await this.options.source.saveResultsCursor(nowSeconds);
    } catch (error) {
      this.options.log.warn({ err: error }, "alerts: results poll failed");
    }
  }

  private track(promise: Promise<unknown>): void {
    this.pending.add(promise);
    void promise.finally(() => this.pending.delete(promise));
  }

  /**
   * One event's firings: recorded together (retried: recording is idempotent, the store's unique index keeps one of
   * each), then each delivered by whoever recorded it, in the background. Rejects when recording failed for good,
   * which the results poll needs to know (it then keeps its cursor).
   */
  private async fire(all: readonly AlertCandidate[]): Promise<void> {
    const nowMs = this.now();
    const audible = this.mutes.isEmpty ? all : all.filter((c) => !this.mutes.isMuted(c, nowMs));
    if (audible.length === 0) return;
    const described = await this.describe([...audible]);
    let recorded: RecordedFiring[] | null = null;
    for (let attempt = 0; recorded === null; attempt++) {
      try {
        recorded = await this.options.source.recordFirings(described);
      } catch (error) {
        const delay = this.recordRetryMs[attempt];
        if (delay === undefined || this.stopping) {
          this.options.log.error(
            {
              err: error,
              attempts: attempt + 1,
              ruleIds: audible.flatMap((c) => c.rules.map((r) => r.ruleId)),
            },
            "alerts: could not record the firings",
          );
          throw error;
        }
        this.options.log.warn(
          { err: error, attempt: attempt + 1 },
          "alerts: recording the firings failed; retrying",
        );
        // Cut short by stop(): one last attempt, then shutdown goes on.
        await pause(delay, this.stopped.signal);
      }
    }
    if (recorded.length === 0) return;
    for (const { candidate, alert } of recorded) {
      this.options.bus.publish({ type: "alert", userId: candidate.userId, alert });
      const link = this.options.publicBaseUrl ? `${this.options.publicBaseUrl}${alertPath(alert)}` : null;
      // Each webhook once, however many of the alert's rules name it.
      const byUrl = new Map<string, string[]>();
      for (const rule of candidate.rules) {
        const url = this.webhookUrls.get(rule.ruleId);
        if (url) byUrl.set(url, [...(byUrl.get(url) ?? []), rule.ruleId]);
      }
      for (const [webhookUrl, ruleIds] of byUrl)
        this.track(
          this.options.webhooks.deliver(webhookUrl, webhookPayload(alert, link), {
            user: candidate.userId,
            ruleIds,
            about: `${candidate.subject}:${candidate.sequence ?? -1}`,
          }),
        );
    }
    this.track(this.pushTo(recorded));
  }

  private async pushTo(recorded: readonly RecordedFiring[]): Promise<void> {
    try {
      const subscriptions = await this.options.pushSubscriptionsOf(recorded.map((r) => r.candidate.userId));
      if (subscriptions.size === 0) return;
      const sender = await this.options.push();
      if (!sender) return;
      this.pushSender = sender;
      // Queued, not sent at once: the sender's queue bounds concurrency per user and per push service.
      await Promise.all(
        recorded.flatMap(({ candidate, alert }) =>
          (subscriptions.get(candidate.userId) ?? []).map((s) =>
            sender.send(s, pushMessage(alert, alertPath(alert)), {
              user: candidate.userId,
              ruleIds: candidate.rules.map((r) => r.ruleId),
            }),
          ),
        ),
      );
    } catch (error) {
      this.options.log.warn({ err: error }, "alerts: push delivery failed");
    }
  }
}

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
