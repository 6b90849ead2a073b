import "server-only";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Watchlist, WatchlistCreate, WatchlistPatch } from "@/lib/schemas/watchlists";
import { WATCHLIST_MAX_TICKERS } from "@/lib/schemas/watchlists";
import type { Db } from "../db/database";
import { rowId } from "../db/row-id";
import { alertRules, watchlistItems, watchlists } from "../db/schema/workspace";
import { LIMITS, limitReached, lockUserLimit } from "../db/user-limits";
import { AppError, notFound } from "../errors";

/**
 * Watchlists per user. Every change is one transaction, and a change addresses the user's own list only: another
 * user's id answers 404, exactly like an id that does not exist, so ids reveal nothing.
 *
 * Additions and removals (`add`, `remove`) are applied on what is stored, so two tabs following different tickers at
 * the same time both win; `tickers` replaces the whole list.
 */

export const MAX_WATCHLISTS = LIMITS.watchlistsPerUser;

export class WatchlistRepository {
  constructor(private readonly db: Db) {}

  async list(userId: string): Promise<Watchlist[]> {
    const lists = await this.db
      .select()
      .from(watchlists)
      .where(eq(watchlists.userId, userId))
      .orderBy(asc(watchlists.position), asc(watchlists.id));
    return this.withItems(lists);
  }

  /** One of the user's watchlists, read by id (not by listing them all); another user's id is a 404. */
  async get(userId: string, id: string): Promise<Watchlist> {
    const lists = await this.db
      .select()
      .from(watchlists)
      .where(and(eq(watchlists.id, rowId(id)), eq(watchlists.userId, userId)));
    const [found] = await this.withItems(lists);
    if (!found) throw notFound(`No watchlist ${id}.`);
    return found;
  }

  private async withItems(lists: (typeof watchlists.$inferSelect)[]): Promise<Watchlist[]> {
    if (lists.length === 0) return [];
    const items = await this.db
      .select()
      .from(watchlistItems)
      .where(
        inArray(
          watchlistItems.watchlistId,
          lists.map((l) => l.id),
        ),
      )
      .orderBy(asc(watchlistItems.position), asc(watchlistItems.symbol));
    const byList = new Map<number, string[]>();
    for (const item of items) {
      const list = byList.get(item.watchlistId);
      if (list) list.push(item.symbol);
      else byList.set(item.watchlistId, [item.symbol]);
    }
    return lists.map((l) => ({
      id: String(l.id),
      name: l.name,
      position: l.position,
      tickers: byList.get(l.id) ?? [],
      createdAt: new Date(l.createdAt).toISOString(),
    }));
  }

  async create(userId: string, input: WatchlistCreate): Promise<Watchlist> {
    const id = await this.db.transaction(async (tx) => {
      await lockUserLimit(tx as unknown as Db, "watchlists", userId);
      const [{ count, next }] = (await tx
        .select({
          count: sql<number>`count(*)::int`,
          next: sql<number>`coalesce(max(${watchlists.position}) + 1, 0)::int`,
        })
        .from(watchlists)
        .where(eq(watchlists.userId, userId))) as [{ count: number; next: number }];
      if (count >= MAX_WATCHLISTS)
        throw limitReached(`at most ${MAX_WATCHLISTS} watchlists per user; delete one first`);
      const [row] = await tx
        .insert(watchlists)
        .values({ userId, name: input.name, position: next })
        .returning({ id: watchlists.id });
      await writeItems(tx as unknown as Db, row!.id, input.tickers);
      await assertItemsWithinLimit(tx as unknown as Db, userId);
      return row!.id;
    });
    return this.get(userId, String(id));
  }

  async update(userId: string, id: string, patch: WatchlistPatch): Promise<Watchlist> {
    const numericId = rowId(id);
    await this.db.transaction(async (tx) => {
      await lockUserLimit(tx as unknown as Db, "watchlists", userId);
      const [owned] = await tx
        .select({ id: watchlists.id })
        .from(watchlists)
        .where(and(eq(watchlists.id, numericId), eq(watchlists.userId, userId)))
        .for("update");
      if (!owned) throw notFound(`No watchlist ${id}.`);
      if (patch.name !== undefined || patch.position !== undefined)
        await tx
          .update(watchlists)
          .set({
            ...(patch.name !== undefined ? { name: patch.name } : {}),
            ...(patch.position !== undefined ? { position: patch.position } : {}),
          })
          .where(eq(watchlists.id, numericId));
      if (patch.tickers !== undefined) {
        await tx.delete(watchlistItems).where(eq(watchlistItems.watchlistId, numericId));
        await writeItems(tx as unknown as Db, numericId, patch.tickers);
      }
      if (patch.remove?.length)
        await tx
          .delete(watchlistItems)
          .where(
            and(eq(watchlistItems.watchlistId, numericId), inArray(watchlistItems.symbol, patch.remove)),
          );
      if (patch.add?.length) {
        const [{ count, next }] = (await tx
          .select({
            count: sql<number>`count(*)::int`,
            next: sql<number>`coalesce(max(${watchlistItems.position}) + 1, 0)::int`,
          })
          .from(watchlistItems)
          .where(eq(watchlistItems.watchlistId, numericId))) as [{ count: number; next: number }];
        if (count + patch.add.length > WATCHLIST_MAX_TICKERS)
          throw new AppError(
            "invalid_parameter",
            `a watchlist holds at most ${WATCHLIST_MAX_TICKERS} tickers`,
          );
        await tx
          .insert(watchlistItems)
          .values(patch.add.map((symbol, i) => ({ watchlistId: numericId, symbol, position: next + i })))
          .onConflictDoNothing();
      }
      if (patch.tickers !== undefined || patch.add?.length)
        await assertItemsWithinLimit(tx as unknown as Db, userId);
    });
    return this.get(userId, id);
  }

  async remove(userId: string, id: string): Promise<void> {
    const deleted = await this.db
      .delete(watchlists)
      .where(and(eq(watchlists.id, rowId(id)), eq(watchlists.userId, userId)))
      .returning({ id: watchlists.id });
    if (deleted.length === 0) throw notFound(`No watchlist ${id}.`);
  }

  /**
   * Whether any alert rule is scoped to this watchlist: only then does a change of its tickers (or its deletion)
   * change what the alert engine evaluates, and the engine reloads its rules (a follow star's click did each time).
   */
  async scopesRules(id: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: alertRules.id })
      .from(alertRules)
      .where(eq(alertRules.watchlistId, rowId(id)))
      .limit(1);
    return rows.length > 0;
  }

  /** Every watchlist's tickers, by id (the alert engine resolves rule scopes with it). */
  async tickersById(): Promise<Map<string, string[]>> {
    const rows = await this.db
      .select({ id: watchlistItems.watchlistId, symbol: watchlistItems.symbol })
      .from(watchlistItems)
      .orderBy(asc(watchlistItems.position));
    const out = new Map<string, string[]>();
    for (const row of rows) {
      const key = String(row.id);
      const list = out.get(key);
      if (list) list.push(row.symbol);
      else out.set(key, [row.symbol]);
    }
    return out;
  }

  /** The tickers a user follows, across their watchlists, in list order, each once. */
  async followed(userId: string): Promise<string[]> {
    return [...new Set((await this.list(userId)).flatMap((l) => l.tickers))];
  }
}

/** Tickers across every watchlist of the user, after the transaction's changes; too many rolls it back. */
async function assertItemsWithinLimit(db: Db, userId: string): Promise<void> {
  const [{ n }] = (await db
    .select({ n: sql<number>`count(*)::int` })
    .from(watchlistItems)
    .innerJoin(watchlists, eq(watchlists.id, watchlistItems.watchlistId))
    .where(eq(watchlists.userId, userId))) as [{ n: number }];
  if (n > LIMITS.watchlistItemsPerUser)
    throw limitReached(
      `at most ${LIMITS.watchlistItemsPerUser} tickers across your watchlists (this change makes ${n}); remove some first`,
    );
}

async function writeItems(db: Db, watchlistId: number, tickers: readonly string[]): Promise<void> {
  if (tickers.length === 0) return;
  await db
    .insert(watchlistItems)
    .values(tickers.map((symbol, position) => ({ watchlistId, symbol, position })))
    .onConflictDoNothing();
}
