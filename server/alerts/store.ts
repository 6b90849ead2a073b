import "server-only";
import { and, count, desc, eq, gt, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import {
  type Alert,
  type AlertFacets,
  type AlertListFilter,
  type AlertMute,
  type AlertMuteInput,
  type AlertRule,
  type AlertRuleInput,
  type AlertRuleKind,
  type SpeakerRole,
} from "@/lib/schemas/alerts";
import { ruleLabel } from "@/lib/alerts/display";
import { queryRows, type Db } from "../db/database";
import {
  alertDeliveries,
  alertFirings,
  alertMutes,
  alertRules,
  pushSubscriptions,
  watchlists,
  workspaceSecrets,
} from "../db/schema/workspace";
import { AppError, notFound } from "../errors";
import { LIMITS, limitReached, lockUserLimit } from "../db/user-limits";
import { rowId } from "../db/row-id";
import { toActiveMute, toAlert, toMute, toRule } from "./alert-rows";
import { pushSubscriptionsOfUsers, savePushSubscription } from "./push-subscriptions";
import type { PushSubscriptionJson, StoredPushSubscription, VapidKeys, VapidKeyStore } from "./push";
import { MuteIndex, type ActiveMute } from "./mutes";
import { resolveScope, type AlertCandidate, type CompiledRule } from "./rules";
import type { DeliveryAttempt, DeliveryLog } from "./webhook";

/**
 * Alert rules, the firings they record and their deliveries, mutes, push subscriptions and the VAPID keys. The rows'
 * API shapes are in alert-rows.ts, an edit's checks in rule-patch.ts, the push subscriptions' rules in
 * push-subscriptions.ts.
 *
 * Exactly once: `recordFiring` inserts with `ON CONFLICT DO NOTHING` on the (user, subject, sequence) unique index
 * (one alert per sentence per user, naming every rule that matched) and returns the row only when this call inserted
 * it. Whoever gets the row delivers it; a second evaluation of the same event (a new leader replaying, two instances
 * in a split second) gets `null` and delivers nothing.
 */

export const MAX_RULES_PER_USER = LIMITS.rulesPerUser;
/** A mute lasts at most this long: longer than any call, so one whose call's end was never seen still lapses. */
export const MUTE_MAX_MS = 12 * 60 * 60_000;

type FiringRow = typeof alertFirings.$inferSelect;

/**
 * The advisory lock between mutes and recordings: a recording holds it shared, a new mute alone, so a mute takes
 * effect for every sentence not yet recorded, and what was recorded before it is marked read by it. (PGlite has one
 * connection and serialises anyway; PostgreSQL needs the lock.)
 */
const MUTE_LOCK = 0x6d75_7465; // "mute"

/** A firing this instance recorded, with the candidate it came from (who gets it, which rule's webhook). */
export interface RecordedFiring {
  candidate: AlertCandidate;
  alert: Alert;
}

const firingKey = (userId: string, subject: string, sequence: number) =>
  `${userId}\u0000${subject}\u0000${sequence}`;

export interface StoredRule extends AlertRule {
  userId: string;
}

export class AlertStore implements VapidKeyStore {
  constructor(private readonly db: Db) {}

  // ── rules ──────────────────────────────────────────────────────────────────────────────────────────────────────

  async listRules(userId: string): Promise<AlertRule[]> {
    const rows = await this.db
      .select()
      .from(alertRules)
      .where(eq(alertRules.userId, userId))
      .orderBy(desc(alertRules.id));
    return rows.map(toRule);
  }

  /** `input` is validated already (schema and webhook target); the watchlist must be the user's own. */
  async createRule(userId: string, input: AlertRuleInput): Promise<AlertRule> {
    return this.db.transaction(async (tx) => {
      await lockUserLimit(tx as unknown as Db, "rules", userId);
      const [{ n }] = (await tx
        .select({ n: count() })
        .from(alertRules)
        .where(eq(alertRules.userId, userId))) as [{ n: number }];
      if (Number(n) >= MAX_RULES_PER_USER)
        throw limitReached(`at most ${MAX_RULES_PER_USER} alert rules per user; delete one first`);
      if (input.watchlistId !== undefined) {
        const [owned] = await tx
          .select({ id: watchlists.id })
          .from(watchlists)
          .where(and(eq(watchlists.id, Number(input.watchlistId)), eq(watchlists.userId, userId)));
        if (!owned)
          throw new AppError(
            "invalid_parameter",
            `watchlistId names no watchlist of yours (${input.watchlistId})`,
          );
      }
      const [row] = await tx
        .insert(alertRules)
        .values({
          userId,
          kind: input.kind,
          phrase: input.phrase ?? null,
          tickers: input.tickers ?? null,
          watchlistId: input.watchlistId === undefined ? null : Number(input.watchlistId),
          speakerRole: input.speakerRole ?? null,
          threshold: input.threshold ?? null,
          webhookUrl: input.webhookUrl ?? null,
          name: input.name ?? null,
          pausedAt: input.paused ? sql`now()` : null,
        })
        .returning();
      return toRule(row!);
    });
  }

  async getRule(userId: string, id: string): Promise<AlertRule> {
    const [row] = await this.db
      .select()
      .from(alertRules)
      .where(and(eq(alertRules.id, rowId(id)), eq(alertRules.userId, userId)));
    if (!row) throw notFound(`No alert rule ${id}.`);
    return toRule(row);
  }

  /**
   * Edits a rule: `input` is the whole rule as it will be (validated, webhook checked), `paused` pauses or resumes it
   * (undefined: as it was). The alerts it fired keep the label they were fired with.
   */
  async updateRule(
    userId: string,
    id: string,
    input: AlertRuleInput,
    paused: boolean | undefined,
  ): Promise<AlertRule> {
    return this.db.transaction(async (tx) => {
      if (input.watchlistId !== undefined) {
        const [owned] = await tx
          .select({ id: watchlists.id })
          .from(watchlists)
          .where(and(eq(watchlists.id, Number(input.watchlistId)), eq(watchlists.userId, userId)));
        if (!owned)
          throw new AppError("invalid_parameter", "That watchlist no longer exists; choose another.");
      }
      const [row] = await tx
        .update(alertRules)
        .set({
          kind: input.kind,
          phrase: input.phrase ?? null,
          tickers: input.tickers ?? null,
          watchlistId: input.watchlistId === undefined ? null : Number(input.watchlistId),
          speakerRole: input.speakerRole ?? null,
          threshold: input.threshold ?? null,
          webhookUrl: input.webhookUrl ?? null,
          name: input.name ?? null,
          ...(paused === undefined
            ? {}
            : { pausedAt: paused ? sql`coalesce(${alertRules.pausedAt}, now())` : null }),
        })
        .where(and(eq(alertRules.id, rowId(id)), eq(alertRules.userId, userId)))
        .returning();
      if (!row) throw notFound(`No alert rule ${id}.`);
      return toRule(row);
    });
  }

  async deleteRule(userId: string, id: string): Promise<void> {
    const deleted = await this.db
      .delete(alertRules)
      .where(and(eq(alertRules.id, rowId(id)), eq(alertRules.userId, userId)))
      .returning({ id: alertRules.id });
    if (deleted.length === 0) throw notFound(`No alert rule ${id}.`);
  }

  /** Every user's rules with their scopes resolved, for the engine. */
  async compiledRules(
    watchlistTickers: Map<string, string[]>,
  ): Promise<{ rules: CompiledRule[]; webhooks: Map<string, string> }> {
    const rows = await this.db.select().from(alertRules).where(isNull(alertRules.pausedAt));
    const webhooks = new Map<string, string>();
    const rules = rows.map((row) => {
      if (row.webhookUrl) webhooks.set(String(row.id), row.webhookUrl);
      const watchlistId = row.watchlistId === null ? null : String(row.watchlistId);
      return {
        id: String(row.id),
        userId: row.userId,
        kind: row.kind as AlertRuleKind,
        label: ruleLabel({
          name: row.name,
          kind: row.kind as AlertRuleKind,
          phrase: row.phrase,
          threshold: row.threshold,
        }),
        phrase: row.phrase,
        tickers: resolveScope(
          row.tickers,
          watchlistId ? watchlistTickers.get(watchlistId) : null,
          watchlistId !== null,
        ),
        speakerRole: row.speakerRole as SpeakerRole | null,
        threshold: row.threshold,
      } satisfies CompiledRule;
    });
    return { rules, webhooks };
  }

  // ── firings ────────────────────────────────────────────────────────────────────────────────────────────────────

  /** Records a firing; returns it when this call recorded it, `null` when it was recorded before. */
  async recordFiring(candidate: AlertCandidate): Promise<Alert | null> {
    return (await this.recordFirings([candidate]))[0]?.alert ?? null;
  }

  /**
   * Records the firings of one event in one statement (a sentence can fire the rules of many users; one round trip
   * instead of one each keeps the time to the first toast flat), and returns those this call recorded. Should the
   * statement fail, each is tried alone, so one bad row costs nobody else their alert.
   */
  async recordFirings(candidates: readonly AlertCandidate[]): Promise<RecordedFiring[]> {
    if (candidates.length === 0) return [];
    let rows: FiringRow[];
    try {
      rows = await this.insertFirings(candidates);
    } catch (error) {
      if (candidates.length === 1) throw error;
      rows = [];
      let failed = 0;
      for (const candidate of candidates)
        rows.push(...(await this.insertFirings([candidate]).catch(() => ((failed += 1), []))));
      // Every one failing is the database, not one row: the caller logs it rather than it being lost quietly.
      if (failed === candidates.length) throw error;
    }
    const byKey = new Map(rows.map((row) => [firingKey(row.userId, row.subject, row.sequence), row]));
    const recorded: RecordedFiring[] = [];
    for (const candidate of candidates) {
      const key = firingKey(candidate.userId, candidate.subject, candidate.sequence ?? -1);
      const row = byKey.get(key);
      if (!row) continue;
      byKey.delete(key);
      recorded.push({ candidate, alert: toAlert(row) });
    }
    return recorded;
  }

  /**
   * Inserts what no mute silences, the mutes read in the same transaction under the shared side of MUTE_LOCK: the
   * engine's copy of the mutes is reloaded only when the bus says they changed, and a sentence evaluated meanwhile
   * would otherwise be recorded and delivered after its call was muted (docs/workspace.md, Triage).
   */
  private insertFirings(candidates: readonly AlertCandidate[]): Promise<FiringRow[]> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock_shared(${MUTE_LOCK})`);
      const users = [...new Set(candidates.map((c) => c.userId))];
      const mutes = await tx
        .select()
        .from(alertMutes)
        .where(and(inArray(alertMutes.userId, users), gt(alertMutes.expiresAt, sql`now()`)));
      if (mutes.length === 0) return this.insertRows(tx, candidates);
      const index = new MuteIndex(mutes.map(toActiveMute));
      const audible = candidates.filter((c) => !index.isMuted(c, 0));
      return audible.length === 0 ? [] : this.insertRows(tx, audible);
    });
  }

  private insertRows(tx: Db, candidates: readonly AlertCandidate[]): Promise<FiringRow[]> {
    return tx
      .insert(alertFirings)
      .values(
        candidates.map((candidate) => ({
          userId: candidate.userId,
          ruleIds: candidate.rules.map((r) => Number(r.ruleId)),
          matches: candidate.rules,
          kind: candidate.rules[0]!.kind,
          subject: candidate.subject,
          callId: candidate.callId,
          symbol: candidate.symbol,
          sequence: candidate.sequence ?? -1,
          startMs: candidate.startMs === null ? null : Math.round(candidate.startMs),
          text: candidate.text,
        })),
      )
      .onConflictDoNothing()
      .returning();
  }

  /**
   * The inbox, newest first; `before` (an alert id) pages back. Filters narrow by ticker, rule, call and unread;
   * `unread` always counts every unread alert (the bell's number), and the first page carries the facets the
   * filters offer (every ticker and rule with their counts).
   */
  async listAlerts(
    userId: string,
    options: { limit: number; before?: string } & AlertListFilter,
  ): Promise<{ data: Alert[]; unread: number; facets?: AlertFacets }> {
    const where = and(
      eq(alertFirings.userId, userId),
      options.before ? lt(alertFirings.id, rowId(options.before)) : undefined,
      options.ticker ? eq(alertFirings.symbol, options.ticker) : undefined,
      options.callId ? eq(alertFirings.callId, options.callId) : undefined,
      options.ruleId ? sql`${alertFirings.ruleIds} @> ARRAY[${rowId(options.ruleId)}]::bigint[]` : undefined,
      options.unread ? isNull(alertFirings.readAt) : undefined,
    );
    const rows = await this.db
      .select()
      .from(alertFirings)
      .where(where)
      .orderBy(desc(alertFirings.id))
      .limit(options.limit);
    const unread = await this.unreadCount(userId);
    if (options.before) return { data: rows.map(toAlert), unread };
    return { data: rows.map(toAlert), unread, facets: await this.facets(userId) };
  }

  /** Every ticker and rule of the user's alerts with how many (and how many unread), for the inbox's filters. */
  async facets(userId: string): Promise<AlertFacets> {
    const unreadCase = sql<number>`count(*) filter (where ${alertFirings.readAt} is null)`.mapWith(Number);
    const [symbols, rules] = await Promise.all([
      this.db
        .select({ symbol: alertFirings.symbol, total: count().mapWith(Number), unread: unreadCase })
        .from(alertFirings)
        .where(eq(alertFirings.userId, userId))
        .groupBy(alertFirings.symbol)
        .orderBy(alertFirings.symbol),
      queryRows<{ rule_id: string; total: number; unread: number }>(
        this.db,
        sql`
        select r.rule_id::text as rule_id, count(*)::int as total,
          (count(*) filter (where f.read_at is null))::int as unread
        from ${alertFirings} f, unnest(f.rule_ids) as r(rule_id)
        where f.user_id = ${userId}
        group by r.rule_id order by r.rule_id desc`,
      ),
    ]);
    return {
      symbols,
      rules: rules.map((r) => ({ ruleId: r.rule_id, total: Number(r.total), unread: Number(r.unread) })),
    };
  }

  async unreadCount(userId: string): Promise<number> {
    const [{ n }] = (await this.db
      .select({ n: count() })
      .from(alertFirings)
      .where(and(eq(alertFirings.userId, userId), isNull(alertFirings.readAt)))) as [{ n: number }];
    return Number(n);
  }

  async markRead(userId: string, id: string): Promise<Alert> {
    const [row] = await this.db
      .update(alertFirings)
      .set({ readAt: sql`coalesce(${alertFirings.readAt}, now())` })
      .where(and(eq(alertFirings.id, rowId(id)), eq(alertFirings.userId, userId)))
      .returning();
    if (!row) throw notFound(`No alert ${id}.`);
    return toAlert(row);
  }

  /**
   * Marks the user's unread alerts read, up to `upTo` (an alert id, inclusive) when given: the newest the reader has
   * seen, so an alert that fires while the request is on its way stays unread; only one call's with `callId`.
   * Returns how many it marked.
   */
  async markAllRead(userId: string, upTo?: string, callId?: string): Promise<number> {
    const rows = await this.db
      .update(alertFirings)
      .set({ readAt: sql`now()` })
      .where(
        and(
          eq(alertFirings.userId, userId),
          isNull(alertFirings.readAt),
          upTo === undefined ? undefined : lte(alertFirings.id, rowId(upTo)),
          callId === undefined ? undefined : eq(alertFirings.callId, callId),
        ),
      )
      .returning({ id: alertFirings.id });
    return rows.length;
  }

  // ── mutes ──────────────────────────────────────────────────────────────────────────────────────────────────────

  /** The user's mutes still in force, newest first. */
  async listMutes(userId: string): Promise<AlertMute[]> {
    const rows = await this.db
      .select()
      .from(alertMutes)
      .where(and(eq(alertMutes.userId, userId), gt(alertMutes.expiresAt, sql`now()`)))
      .orderBy(desc(alertMutes.id));
    return rows.map(toMute);
  }

  /**
   * Mutes a call, or a company until its call in progress ends, and marks the alerts it silences read (muting is
   * triage: what was muted is dealt with). Muting what is already muted returns the existing mute. Returns the mute
   * and how many alerts it marked read.
   */
  async createMute(userId: string, input: AlertMuteInput): Promise<{ mute: AlertMute; marked: number }> {
    return this.db.transaction(async (tx) => {
      // Alone on MUTE_LOCK: the recordings in flight finish first (and are marked read below), every later one sees
      // this mute.
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${MUTE_LOCK})`);
      const callId = input.callId ?? null;
      const symbol = input.scope === "company" ? input.symbol : (input.symbol ?? null);
      const [existing] = await tx
        .select()
        .from(alertMutes)
        .where(
          and(
            eq(alertMutes.userId, userId),
            eq(alertMutes.scope, input.scope),
            gt(alertMutes.expiresAt, sql`now()`),
            input.scope === "call"
              ? eq(alertMutes.callId, input.callId)
              : eq(alertMutes.symbol, input.symbol),
          ),
        );
      const [row] = existing
        ? [existing]
        : await tx
            .insert(alertMutes)
            .values({
              userId,
              scope: input.scope,
              callId,
              symbol,
              expiresAt: sql`now() + ${`${MUTE_MAX_MS} milliseconds`}::interval`,
            })
            .returning();
      const marked = await tx
        .update(alertFirings)
        .set({ readAt: sql`now()` })
        .where(
          and(
            eq(alertFirings.userId, userId),
            isNull(alertFirings.readAt),
            input.scope === "call"
              ? eq(alertFirings.callId, input.callId)
              : eq(alertFirings.symbol, input.symbol),
          ),
        )
        .returning({ id: alertFirings.id });
      return { mute: toMute(row!), marked: marked.length };
    });
  }

  async deleteMute(userId: string, id: string): Promise<void> {
    const deleted = await this.db
      .delete(alertMutes)
      .where(and(eq(alertMutes.id, rowId(id)), eq(alertMutes.userId, userId)))
      .returning({ id: alertMutes.id });
    if (deleted.length === 0) throw notFound(`No mute ${id}.`);
  }

  /** Every user's mutes in force, for the engine. */
  async activeMutes(): Promise<ActiveMute[]> {
    const rows = await this.db
      .select()
      .from(alertMutes)
      .where(gt(alertMutes.expiresAt, sql`now()`));
    return rows.map(toActiveMute);
  }

  /** A call ended: the mutes that lasted until its end (the call's own, its company's) end with it. */
  async endMutesOf(callId: string): Promise<number> {
    const rows = await this.db
      .delete(alertMutes)
      .where(or(eq(alertMutes.callId, callId), lt(alertMutes.expiresAt, sql`now()`)))
      .returning({ id: alertMutes.id });
    return rows.length;
  }

  // ── deliveries ─────────────────────────────────────────────────────────────────────────────────────────────────

  readonly deliveryLog: DeliveryLog = {
    record: async (attempt: DeliveryAttempt) => {
      await this.db.insert(alertDeliveries).values({
        firingId: Number(attempt.alertId),
        channel: attempt.channel,
        target: attempt.target,
        attempt: attempt.attempt,
        ok: attempt.ok,
        status: attempt.status,
        error: attempt.error?.slice(0, 500) ?? null,
        durationMs: attempt.durationMs,
      });
    },
  };

  async deliveries(userId: string, alertId: string): Promise<(typeof alertDeliveries.$inferSelect)[]> {
    return this.db
      .select({ delivery: alertDeliveries })
      .from(alertDeliveries)
      .innerJoin(alertFirings, eq(alertFirings.id, alertDeliveries.firingId))
      .where(and(eq(alertFirings.userId, userId), eq(alertDeliveries.firingId, rowId(alertId))))
      .orderBy(alertDeliveries.id)
      .then((rows) => rows.map((r) => r.delivery));
  }

  // ── push ───────────────────────────────────────────────────────────────────────────────────────────────────────

  /** At most `LIMITS.pushSubscriptionsPerUser`, an endpoint never taken from another user (push-subscriptions.ts). */
  async savePushSubscription(userId: string, subscription: PushSubscriptionJson): Promise<void> {
    await savePushSubscription(this.db, userId, subscription);
  }

  async removePushSubscription(userId: string, endpoint: string): Promise<void> {
    await this.db
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
  }

  async deletePushSubscription(id: string): Promise<void> {
    await this.db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, rowId(id)));
  }

  async pushSubscriptionsOf(userId: string): Promise<StoredPushSubscription[]> {
    return (await this.pushSubscriptionsOfUsers([userId])).get(userId) ?? [];
  }

  /** The push subscriptions of several users in one query (an event's firings), by user. */
  async pushSubscriptionsOfUsers(userIds: readonly string[]): Promise<Map<string, StoredPushSubscription[]>> {
    return pushSubscriptionsOfUsers(this.db, userIds);
  }

  // ── small state (the results poll's cursor) ────────────────────────────────────────────────────────────────────

  async getState(key: string): Promise<unknown> {
    const [row] = await this.db
      .select()
      .from(workspaceSecrets)
      .where(eq(workspaceSecrets.key, `state:${key}`));
    return row?.value ?? null;
  }

  async setState(key: string, value: unknown): Promise<void> {
    await this.db
      .insert(workspaceSecrets)
      .values({ key: `state:${key}`, value })
      .onConflictDoUpdate({ target: workspaceSecrets.key, set: { value } });
  }

  // ── VAPID keys (VapidKeyStore) ─────────────────────────────────────────────────────────────────────────────────

  async load(): Promise<VapidKeys | null> {
    const [row] = await this.db.select().from(workspaceSecrets).where(eq(workspaceSecrets.key, "vapid"));
    return row ? (row.value as VapidKeys) : null;
  }

  async saveIfAbsent(keys: VapidKeys): Promise<VapidKeys> {
    await this.db.insert(workspaceSecrets).values({ key: "vapid", value: keys }).onConflictDoNothing();
    return (await this.load())!;
  }
}
