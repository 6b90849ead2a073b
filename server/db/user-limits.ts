import "server-only";
import { sql } from "drizzle-orm";
import { DEFAULT_NOTES_PER_USER } from "../config";
import { AppError } from "../errors";
import type { Db } from "./database";

/**
 * Per-user limits of the workspace (docs/workspace.md, Limits; README, Workspace API). A limit is checked by
 * counting, then inserting, in one transaction; two transactions counting at once would both see room for one more,
 * so each first takes a transaction-scoped advisory lock on (limit, user): concurrent additions of one user line up,
 * other users never wait. PGlite has one connection and needs no lock; PostgreSQL does (tested against a real
 * server: test/storage/limits.test.ts).
 */

export const LIMITS = {
  rulesPerUser: 100,
  watchlistsPerUser: 50,
  /** Tickers across all of a user's watchlists (one list holds at most WATCHLIST_MAX_TICKERS). */
  watchlistItemsPerUser: 1_000,
  /** Default of CALLROOM_NOTES_PER_USER: notes across all calls. */
  notesPerUser: DEFAULT_NOTES_PER_USER,
  pushSubscriptionsPerUser: 20,
} as const;

/** Serialises the limited additions of one user within the calling transaction. */
export async function lockUserLimit(tx: Db, limit: string, userId: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`${limit}:${userId}`}, 0))`);
}

/** 409: the request is valid, the user's count is what refuses it. */
export function limitReached(message: string): AppError {
  return new AppError("limit_reached", message);
}
