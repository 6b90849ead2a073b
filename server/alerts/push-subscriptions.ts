import "server-only";
import { count, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/database";
import { pushSubscriptions } from "../db/schema/workspace";
import { LIMITS, limitReached, lockUserLimit } from "../db/user-limits";
import { AppError } from "../errors";
import type { PushSubscriptionJson, StoredPushSubscription } from "./push";

/** The users' browser push subscriptions (the AlertStore's push methods): the per-user cap and who owns an endpoint. */

function endpointTaken(): AppError {
  return new AppError(
    "endpoint_taken",
    "This browser's push subscription belongs to another user; that user must turn notifications off here first.",
  );
}

/**
 * Saves a browser's subscription for the user (at most `LIMITS.pushSubscriptionsPerUser`; the 21st is a 409). The
 * endpoint is unique per browser profile: the same user saving it again updates its keys, but an endpoint another
 * user holds is never taken over (409): that user signs out of push on that browser first.
 */
export async function savePushSubscription(
  db: Db,
  userId: string,
  subscription: PushSubscriptionJson,
): Promise<void> {
  await db.transaction(async (tx) => {
    await lockUserLimit(tx as unknown as Db, "push", userId);
    const [held] = await tx
      .select({ userId: pushSubscriptions.userId })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, subscription.endpoint));
    if (held && held.userId !== userId) throw endpointTaken();
    if (held) {
      await tx
        .update(pushSubscriptions)
        .set({ p256dh: subscription.keys.p256dh, auth: subscription.keys.auth })
        .where(eq(pushSubscriptions.endpoint, subscription.endpoint));
      return;
    }
    const [{ n }] = (await tx
      .select({ n: count() })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId))) as [{ n: number }];
    if (Number(n) >= LIMITS.pushSubscriptionsPerUser)
      throw limitReached(
        `at most ${LIMITS.pushSubscriptionsPerUser} push subscriptions per user; turn notifications off on a browser you no longer use`,
      );
    const inserted = await tx
      .insert(pushSubscriptions)
      .values({
        userId,
        endpoint: subscription.endpoint,
        p256dh: subscription.keys.p256dh,
        auth: subscription.keys.auth,
      })
      .onConflictDoNothing()
      .returning({ id: pushSubscriptions.id });
    // Another user's save of the same endpoint committed between the read and the insert.
    if (inserted.length === 0) throw endpointTaken();
  });
}

/** The push subscriptions of several users in one query (an event's firings), by user. */
export async function pushSubscriptionsOfUsers(
  db: Db,
  userIds: readonly string[],
): Promise<Map<string, StoredPushSubscription[]>> {
  const byUser = new Map<string, StoredPushSubscription[]>();
  if (userIds.length === 0) return byUser;
  const rows = await db
    .select()
    .from(pushSubscriptions)
    .where(inArray(pushSubscriptions.userId, [...new Set(userIds)]));
  for (const r of rows) {
    const list = byUser.get(r.userId) ?? [];
    list.push({
      id: String(r.id),
      subscription: { endpoint: r.endpoint, keys: { p256dh: r.p256dh, auth: r.auth } },
    });
    byUser.set(r.userId, list);
  }
  return byUser;
}
