import "server-only";
import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import { queryRows, type DatabaseHandle, type Db } from "./database";

/**
 * Retention of what grows without bound (docs/storage.md, "Growth under control"): alert firings (the inbox) older
 * than `firingsDays` (default 180: two earnings seasons), with their delivery logs, and delivery logs older than
 * `deliveriesDays` (default 30: they are for diagnosing a webhook, not for history). 0 keeps everything.
 *
 * Once a day (and a few minutes after start), in batches so that PGlite's one connection is never held long; on a
 * shared PostgreSQL one instance at a time (an advisory lock).
 */

export interface RetentionOptions {
  database: DatabaseHandle;
  log: Pick<Logger, "info" | "warn">;
  firingsDays: number;
  deliveriesDays: number;
  /** First run after start, then every `everyMs`. */
  firstAfterMs?: number;
  everyMs?: number;
  now?: () => Date;
}

export interface RetentionResult {
  firings: number;
  deliveries: number;
}

const BATCH = 5_000;
const RETENTION_LOCK_KEY = 727_160_003;

/** Deletes in batches until nothing older than the cutoffs is left; returns what it deleted. */
export async function pruneOnce(
  db: Db,
  limits: { firingsDays: number; deliveriesDays: number },
  now: Date,
): Promise<RetentionResult> {
  const result: RetentionResult = { firings: 0, deliveries: 0 };
  const cutoff = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
  if (limits.deliveriesDays > 0) {
    const before = cutoff(limits.deliveriesDays);
    for (;;) {
      const rows = await queryRows<{ n: number }>(
        db,
        sql`WITH gone AS (
              DELETE FROM alert_deliveries WHERE id IN (
                SELECT id FROM alert_deliveries WHERE at < ${before}::timestamptz LIMIT ${BATCH})
              RETURNING 1)
            SELECT count(*)::int AS n FROM gone`,
      );
      const n = Number(rows[0]?.n ?? 0);
      result.deliveries += n;
      if (n < BATCH) break;
    }
  }
  if (limits.firingsDays > 0) {
    const before = cutoff(limits.firingsDays);
    for (;;) {
      // A firing's deliveries go with it (ON DELETE CASCADE).
      const rows = await queryRows<{ n: number }>(
        db,
        sql`WITH gone AS (
              DELETE FROM alert_firings WHERE id IN (
                SELECT id FROM alert_firings WHERE fired_at < ${before}::timestamptz LIMIT ${BATCH})
              RETURNING 1)
            SELECT count(*)::int AS n FROM gone`,
      );
      const n = Number(rows[0]?.n ?? 0);
      result.firings += n;
      if (n < BATCH) break;
    }
  }
  return result;
}

export function createRetention(options: RetentionOptions): { start(): void; stop(): void } {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running = false;
  const everyMs = options.everyMs ?? 86_400_000;
  const disabled = options.firingsDays <= 0 && options.deliveriesDays <= 0;

  async function run(): Promise<void> {
    timer = null;
    if (!running) return;
    try {
      const database = await options.database.get();
      const lease = await database.tryAdvisoryLock(RETENTION_LOCK_KEY);
      if (lease) {
        try {
          const pruned = await pruneOnce(database.db, options, options.now?.() ?? new Date());
          if (pruned.firings + pruned.deliveries > 0) {
            options.log.info(
              { ...pruned, firingsDays: options.firingsDays, deliveriesDays: options.deliveriesDays },
              `retention: removed ${pruned.firings} alert firings and ${pruned.deliveries} delivery logs`,
            );
          }
        } finally {
          await lease.release();
        }
      }
    } catch (error) {
      options.log.warn({ err: error }, "retention: pruning failed; trying again at the next run");
    }
    if (running) {
      timer = setTimeout(() => void run(), everyMs);
      timer.unref?.();
    }
  }

  return {
    start() {
      if (running || disabled) return;
      running = true;
      timer = setTimeout(() => void run(), options.firstAfterMs ?? 5 * 60_000);
      timer.unref?.();
    },
    stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
