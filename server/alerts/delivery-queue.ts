import "server-only";

/**
 * The bounded queue every outgoing alert delivery (webhook, Web Push) waits in (docs/workspace.md, Deliveries).
 * Deliveries go to hosts that users choose, so one user's rules or one slow host must not take the server's sockets,
 * memory or event loop:
 *
 * - at most `perUser` deliveries in flight per user, `perHost` per target host and `total` in all; the rest wait
 *   in order;
 * - at most `maxQueued` waiting in all and `maxQueuedPerUser` per user: beyond that a delivery is dropped at once
 *   (`dropped` tells the caller, which logs it as a failed delivery: the alert itself is in the inbox);
 * - a job may wait for a time (`notBefore`: a retry's backoff) without holding a slot;
 * - each job belongs to owners (a rule, a user); `release(owners)` takes them off every job, and a job left with
 *   none is cancelled: dropped if waiting, its signal aborted if running. Deleting a rule or removing a user leaves
 *   none of its deliveries open;
 * - `stop()` cancels everything and resolves once the running jobs have settled.
 */

export interface DeliveryJob {
  user: string;
  host: string;
  /** Who the job is for; it is cancelled once `release` has taken every one of them away. */
  owners: Set<string>;
  /** Epoch ms before which it must not start (a retry's backoff). */
  notBefore?: number;
  run(signal: AbortSignal): Promise<void>;
  /** Called instead of `run` (or after it was aborted) when the job will not run: the queue was full, it was cancelled. */
  dropped?(reason: string): void;
}

export interface DeliveryQueueOptions {
  perUser?: number;
  perHost?: number;
  total?: number;
  maxQueued?: number;
  maxQueuedPerUser?: number;
  now?: () => number;
}

export const DELIVERY_LIMITS = {
  perUser: 10,
  perHost: 10,
  total: 40,
  maxQueued: 2_000,
  maxQueuedPerUser: 200,
} as const;

interface Running {
  job: DeliveryJob;
  controller: AbortController;
  done: Promise<void>;
}

export class DeliveryQueue {
  private readonly waiting: DeliveryJob[] = [];
  private readonly running = new Set<Running>();
  private readonly byUser = new Map<string, number>();
  private readonly byHost = new Map<string, number>();
  private readonly waitingByUser = new Map<string, number>();
  private readonly limits: Required<Omit<DeliveryQueueOptions, "now">>;
  private readonly now: () => number;
  private wake: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Most jobs in flight at once so far (tests, the reproduction's figures). */
  peakInFlight = 0;

  constructor(options: DeliveryQueueOptions = {}) {
    const { now, ...limits } = options;
    this.limits = { ...DELIVERY_LIMITS, ...limits };
    this.now = now ?? Date.now;
  }

  get inFlight(): number {
    return this.running.size;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Queues a job; false (and `dropped` called) when the queue is full or stopped. */
  push(job: DeliveryJob): boolean {
    if (this.stopped) return this.refuse(job, "the server is stopping");
    if (this.waiting.length >= this.limits.maxQueued) return this.refuse(job, "delivery queue full");
    if ((this.waitingByUser.get(job.user) ?? 0) >= this.limits.maxQueuedPerUser)
      return this.refuse(job, "delivery queue full for this user");
    this.waiting.push(job);
    bump(this.waitingByUser, job.user, 1);
    this.pump();
    return true;
  }

  /** Takes `owners` off every job; jobs left without an owner are cancelled. Returns how many were cancelled. */
  release(owners: Iterable<string>): number {
    const gone = new Set(owners);
    if (gone.size === 0) return 0;
    let cancelled = 0;
    const orphaned = (job: DeliveryJob) => {
      for (const owner of gone) job.owners.delete(owner);
      return job.owners.size === 0;
    };
    for (let i = this.waiting.length - 1; i >= 0; i--) {
      const job = this.waiting[i]!;
      if (!orphaned(job)) continue;
      this.waiting.splice(i, 1);
      bump(this.waitingByUser, job.user, -1);
      job.dropped?.("cancelled: its rule or user is gone");
      cancelled += 1;
    }
    for (const r of this.running)
      if (orphaned(r.job)) {
        r.controller.abort(new Error("cancelled: its rule or user is gone"));
        cancelled += 1;
      }
    if (cancelled > 0) this.pump();
    return cancelled;
  }

  /** Cancels everything; resolves when every running job has settled. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.wake) clearTimeout(this.wake);
    this.wake = null;
    for (const job of this.waiting.splice(0)) job.dropped?.("the server is stopping");
    this.waitingByUser.clear();
    for (const r of this.running) r.controller.abort(new Error("the server is stopping"));
    await Promise.allSettled([...this.running].map((r) => r.done));
  }

  /** Resolves when nothing waits or runs (tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0 || this.waiting.length > 0) {
      if (this.running.size > 0) await Promise.allSettled([...this.running].map((r) => r.done));
      else await new Promise((r) => setTimeout(r, 10));
    }
  }

  private refuse(job: DeliveryJob, reason: string): false {
    job.dropped?.(reason);
    return false;
  }

  private pump(): void {
    if (this.stopped) return;
    const now = this.now();
    let nextDue = Infinity;
    for (let i = 0; i < this.waiting.length && this.running.size < this.limits.total;) {
      const job = this.waiting[i]!;
      if (job.notBefore !== undefined && job.notBefore > now) {
        nextDue = Math.min(nextDue, job.notBefore);
        i += 1;
        continue;
      }
      if (
        (this.byUser.get(job.user) ?? 0) >= this.limits.perUser ||
        (this.byHost.get(job.host) ?? 0) >= this.limits.perHost
      ) {
        i += 1;
        continue;
      }
      this.waiting.splice(i, 1);
      bump(this.waitingByUser, job.user, -1);
      this.start(job);
    }
    if (this.wake) clearTimeout(this.wake);
    this.wake = null;
    if (nextDue !== Infinity) {
      this.wake = setTimeout(() => this.pump(), Math.max(0, nextDue - now));
      this.wake.unref();
    }
  }

  private start(job: DeliveryJob): void {
    const controller = new AbortController();
    bump(this.byUser, job.user, 1);
    bump(this.byHost, job.host, 1);
    const running: Running = {
      job,
      controller,
      done: Promise.resolve()
        .then(() => job.run(controller.signal))
        .catch(() => {})
        .finally(() => {
          this.running.delete(running);
          bump(this.byUser, job.user, -1);
          bump(this.byHost, job.host, -1);
          this.pump();
        }),
    };
    this.running.add(running);
    this.peakInFlight = Math.max(this.peakInFlight, this.running.size);
  }
}

function bump(map: Map<string, number>, key: string, by: number): void {
  const next = (map.get(key) ?? 0) + by;
  if (next <= 0) map.delete(key);
  else map.set(key, next);
}
