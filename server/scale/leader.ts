import "server-only";
import type { Redis } from "ioredis";
import type { StructuredLog } from "../log";
import { KEY_PREFIX } from "./redis";

/**
 * Leader election: exactly one instance holds the upstream socket.
 *
 * - The lock is `SET leader <instanceId> NX PX ttlMs`, renewed every `renewMs` by a compare-and-extend script (only
 *   the holder can extend it). An instance that cannot renew in time (paused, partitioned) steps down on its own
 *   once its lease has certainly expired, before anyone else can have acquired it.
 * - Fencing: on acquisition the new leader takes `INCR leader:epoch`. Every publish checks the epoch atomically
 *   (see redis-bus.ts), so an old leader that wakes from a pause after someone else took over cannot append.
 * - A follower tries to acquire every `retryMs`; with the defaults (5 s lease, 1 s retry) a dead leader is replaced
 *   within ~6 s.
 */

export const LEADER_KEY = `${KEY_PREFIX}leader`;
export const EPOCH_KEY = `${KEY_PREFIX}leader:epoch`;

const EXTEND = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

export type Role = "leader" | "follower";

export interface LeaderElectionOptions {
  redis: Redis;
  instanceId: string;
  log: StructuredLog;
  ttlMs?: number;
  renewMs?: number;
  retryMs?: number;
  /** Called once per term with its fencing token; the term ends with `onDemoted`. */
  onElected: (epoch: number) => void;
  onDemoted: (reason: string) => void;
}

export class LeaderElection {
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;
  private epochValue: number | null = null;
  /** Local time by which the lease has surely expired unless renewed (taken before the command was sent). */
  private leaseUntil = 0;
  private readonly ttlMs: number;
  private readonly renewMs: number;
  private readonly retryMs: number;

  constructor(private readonly options: LeaderElectionOptions) {
    this.ttlMs = options.ttlMs ?? 5_000;
    this.renewMs = options.renewMs ?? 1_500;
    this.retryMs = options.retryMs ?? 1_000;
  }

  get role(): Role {
    return this.epochValue === null ? "follower" : "leader";
  }

  get epoch(): number | null {
    return this.epochValue;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    void this.tick();
  }

  /** Steps down (releasing the lock so a successor need not wait for the lease to expire) and stops campaigning. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.epochValue !== null) {
      this.demote("stopped");
      await this.options.redis.eval(RELEASE, 1, LEADER_KEY, this.options.instanceId).catch(() => {});
    }
  }

  /** Gives up leadership now (e.g. a publish failed) and campaigns again after a lease period. */
  async resign(reason: string): Promise<void> {
    if (this.epochValue === null) return;
    this.demote(reason);
    await this.options.redis.eval(RELEASE, 1, LEADER_KEY, this.options.instanceId).catch(() => {});
  }

  private demote(reason: string): void {
    if (this.epochValue === null) return;
    this.epochValue = null;
    this.options.log.warn({ reason }, "scale: no longer the leader");
    this.options.onDemoted(reason);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.tick();
    }, ms);
    this.timer.unref?.();
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    const { redis, instanceId } = this.options;
    const sentAt = Date.now();
    try {
      if (this.epochValue !== null) {
        const extended = await withTimeout(
          redis.eval(EXTEND, 1, LEADER_KEY, instanceId, this.ttlMs),
          this.renewMs,
        );
        if (this.stopped) return;
        if (extended === 1) this.leaseUntil = sentAt + this.ttlMs;
        else this.demote("lock lost");
      } else {
        const acquired = await withTimeout(
          redis.set(LEADER_KEY, instanceId, "PX", this.ttlMs, "NX"),
          this.retryMs,
        );
        if (this.stopped) return;
        if (acquired === "OK") {
          const epoch = await redis.incr(EPOCH_KEY);
          if (this.stopped) return;
          this.leaseUntil = sentAt + this.ttlMs;
          this.epochValue = epoch;
          this.options.log.info({ instanceId, epoch }, "scale: elected leader");
          this.options.onElected(epoch);
        }
      }
    } catch (error) {
      this.options.log.warn(
        { err: error instanceof Error ? error.message : String(error) },
        "scale: leader election round failed",
      );
    }
    // Step down before the lease can have expired in Redis: a successor may take over right after it.
    if (this.epochValue !== null && Date.now() > this.leaseUntil - this.renewMs / 2)
      this.demote("lease expiring");
    this.schedule(this.epochValue !== null ? this.renewMs : this.retryMs);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis did not answer within ${ms} ms`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
