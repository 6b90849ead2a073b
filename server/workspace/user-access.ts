import "server-only";
import { and, like, notInArray, or, sql, type SQL } from "drizzle-orm";
import type { Logger } from "pino";
import { isFileUserKey, USER_ID_PATTERN } from "../auth/users";
import type { Db } from "../db/database";
import { feedTokens, pushSubscriptions } from "../db/schema/workspace";
import { LOCAL_USER } from "../auth/session";

/**
 * Whose workspace may still act (docs/workspace.md, Users). Rows are keyed by the user's stable id, which only the
 * users file hands out (server/auth/users.ts); a key the file no longer holds is a removed user, and removing a user
 * must remove their reach at once, without a restart:
 *
 * - their calendar feed and push subscriptions are deleted (the feed URL answers 404 for good: the token is gone,
 *   and a new user of the same name has another key);
 * - their alert rules stay in the database, with their history, but are disabled: the engine loads only rules of
 *   active users, and the reload cancels their deliveries in flight;
 * - `local`, the open instance's owner, is active only while the file has no users (nobody can act as `local`
 *   once sign-in applies, so its rules must not keep delivering).
 *
 * The file is checked every `intervalMs` (it is re-read at most once a second when it changed); any change revokes
 * what the removed keys held and tells the engine to reload. Keys that no users file can produce (a test's "ann")
 * are never revoked.
 */

export interface UserKeys {
  /** The users file's keys now (an empty map: no users, the instance is open). */
  current(): ReadonlyMap<string, { key: string }>;
}

export interface UserAccess {
  isActive(key: string): boolean;
  /** Revokes what removed users held, if the file changed since the last check; true when it did. */
  check(): Promise<boolean>;
  start(): void;
  stop(): void;
}

export interface UserAccessDeps {
  users: UserKeys;
  db: () => Promise<Db>;
  /** Tells the alert engine to reload its rules (on whichever instance leads). */
  rulesChanged: () => void;
  log: Pick<Logger, "info" | "warn">;
  intervalMs?: number;
}

function activeKeys(users: UserKeys): Set<string> {
  return new Set([...users.current().values()].map((u) => u.key));
}

/** Rows of users-file keys (`user:<name>` or an id) that `active` does not hold. */
function removedKeysOf(
  column: typeof feedTokens.userId | typeof pushSubscriptions.userId,
  active: Set<string>,
): SQL {
  const fileKey = or(like(column, "user:%"), sql`${column} ~ ${USER_ID_PATTERN.source}`)!;
  return active.size > 0 ? and(fileKey, notInArray(column, [...active]))! : fileKey;
}

export function createUserAccess(deps: UserAccessDeps): UserAccess {
  let signature: string | null = null;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<boolean> | null = null;

  const isActive = (key: string): boolean => {
    const users = deps.users.current();
    if (key === LOCAL_USER) return users.size === 0;
    if (!isFileUserKey(key)) return true;
    for (const user of users.values()) if (user.key === key) return true;
    return false;
  };

  const revoke = async (): Promise<boolean> => {
    const active = activeKeys(deps.users);
    const next = [...active].sort().join("\n");
    if (next === signature) return false;
    const db = await deps.db();
    const feeds = await db
      .delete(feedTokens)
      .where(removedKeysOf(feedTokens.userId, active))
      .returning({ userId: feedTokens.userId });
    const pushes = await db
      .delete(pushSubscriptions)
      .where(removedKeysOf(pushSubscriptions.userId, active))
      .returning({ userId: pushSubscriptions.userId });
    // Recorded only once the revocation is done: a failure is retried at the next check.
    const first = signature === null;
    signature = next;
    deps.rulesChanged();
    if (!first || feeds.length > 0 || pushes.length > 0)
      deps.log.info(
        { users: active.size, feedsRevoked: feeds.length, pushSubscriptionsRevoked: pushes.length },
        "users: the users file changed; removed users' feeds, push subscriptions and rules revoked",
      );
    return true;
  };

  const check = (): Promise<boolean> => {
    running ??= revoke().finally(() => (running = null));
    return running;
  };

  return {
    isActive,
    check,
    start() {
      if (timer) return;
      const tick = () =>
        void check().catch((error: unknown) =>
          deps.log.warn({ err: error }, "users: could not revoke removed users' access; retrying"),
        );
      tick();
      timer = setInterval(tick, deps.intervalMs ?? 1_000);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}

/** Every user active, nothing revoked: a workspace without a users file to follow (tests, tools). */
export const everyoneActive: UserAccess = {
  isActive: () => true,
  check: async () => false,
  start() {},
  stop() {},
};

/** Keeps only rules, subscriptions or other per-user items whose user is active. */
export function ofActiveUsers<T>(access: UserAccess, items: readonly T[], userOf: (item: T) => string): T[] {
  return items.filter((item) => access.isActive(userOf(item)));
}
