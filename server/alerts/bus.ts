import "server-only";
import type { Redis } from "ioredis";
import { z } from "zod";
import { alertSchema, type Alert } from "@/lib/schemas/alerts";

/**
 * How a recorded alert reaches its user's open tabs. The leader evaluates and records; the user's browser may be
 * connected to any instance, so with `REDIS_URL` every alert is published on a Redis channel that each instance
 * listens to, and each instance hands it to its own SSE clients of that user. Alone, it is an in-process fan-out.
 *
 * `rules-changed` tells the leader (wherever the rule was saved) to reload the rules.
 */

export type BusMessage = { type: "alert"; userId: string; alert: Alert } | { type: "rules-changed" };

/**
 * What arrives on the channel is checked like any input: anything that can reach the Redis server can publish on it,
 * and a malformed alert would otherwise be written into users' SSE streams as it came.
 */
const busMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("alert"), userId: z.string().min(1), alert: alertSchema }),
  z.object({ type: z.literal("rules-changed") }),
]);

export interface AlertBus {
  publish(message: BusMessage): void;
  /** Alerts of one user. */
  subscribeUser(userId: string, onAlert: (alert: Alert) => void): () => void;
  onRulesChanged(listener: () => void): () => void;
  close(): Promise<void>;
}

class Fanout {
  private readonly users = new Map<string, Set<(alert: Alert) => void>>();
  private readonly rulesListeners = new Set<() => void>();

  deliver(message: BusMessage): void {
    if (message.type === "rules-changed") {
      for (const l of this.rulesListeners) safely(l);
      return;
    }
    const listeners = this.users.get(message.userId);
    if (listeners) for (const l of listeners) safely(() => l(message.alert));
  }

  subscribeUser(userId: string, onAlert: (alert: Alert) => void): () => void {
    let set = this.users.get(userId);
    if (!set) {
      set = new Set();
      this.users.set(userId, set);
    }
    set.add(onAlert);
    return () => {
      set.delete(onAlert);
      if (set.size === 0) this.users.delete(userId);
    };
  }

  onRulesChanged(listener: () => void): () => void {
    this.rulesListeners.add(listener);
    return () => this.rulesListeners.delete(listener);
  }
}

function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // One tab's broken stream must not keep the alert from the others.
  }
}

export function createMemoryBus(): AlertBus {
  const fanout = new Fanout();
  return {
    publish: (message) => fanout.deliver(message),
    subscribeUser: (userId, onAlert) => fanout.subscribeUser(userId, onAlert),
    onRulesChanged: (listener) => fanout.onRulesChanged(listener),
    close: async () => {},
  };
}

export const ALERT_CHANNEL = "callroom:alerts";

/** Redis pub/sub: `publisher` and `subscriber` must be separate connections (a subscribed one can only listen). */
export function createRedisBus(
  publisher: Redis,
  subscriber: Redis,
  onError: (error: unknown) => void,
): AlertBus {
  const fanout = new Fanout();
  subscriber.subscribe(ALERT_CHANNEL).catch(onError);
  subscriber.on("message", (channel: string, raw: string) => {
    if (channel !== ALERT_CHANNEL) return;
    try {
      fanout.deliver(busMessageSchema.parse(JSON.parse(raw)));
    } catch (error) {
      onError(error);
    }
  });
  return {
    publish: (message) => void publisher.publish(ALERT_CHANNEL, JSON.stringify(message)).catch(onError),
    subscribeUser: (userId, onAlert) => fanout.subscribeUser(userId, onAlert),
    onRulesChanged: (listener) => fanout.onRulesChanged(listener),
    // The bus owns both connections (the runtime opens them for it).
    async close() {
      await subscriber.quit().catch(() => subscriber.disconnect());
      await publisher.quit().catch(() => publisher.disconnect());
    },
  };
}
