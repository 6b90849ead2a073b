import "server-only";
import { AppError } from "../errors";

/**
 * One archive search per user at a time (issue 26; docs/storage.md). A user's searches run one after another: a
 * search that arrives while the user's previous one runs waits for it, and only the newest waits: an older waiting
 * search is answered 429 (typing fires a search per pause, and only the last one is still wanted). So one user
 * firing heavy searches in parallel holds at most one of the database's turns, never all of them.
 */
export class SearchGate {
  private readonly users = new Map<string, { running: Promise<unknown>; waiting: (() => void) | null }>();

  async run<T>(user: string, signal: AbortSignal | undefined, search: () => Promise<T>): Promise<T> {
    let entry = this.users.get(user);
    if (entry) {
      // Take the waiting place; whoever held it is superseded.
      entry.waiting?.();
      const superseded = await new Promise<boolean>((resolve) => {
        const current = entry!;
        let settled = false;
        const settle = (value: boolean) => {
          if (settled) return;
          settled = true;
          signal?.removeEventListener("abort", onAbort);
          if (current.waiting === supersede) current.waiting = null;
          resolve(value);
        };
        const supersede = () => settle(true);
        const onAbort = () => settle(true);
        current.waiting = supersede;
        signal?.addEventListener("abort", onAbort, { once: true });
        void current.running.finally(() => settle(false));
      });
      if (superseded) {
        throw new AppError(
          "search_superseded",
          "A newer search of yours replaced this one: each user runs one search at a time.",
          { retryAfterSeconds: 1 },
        );
      }
      // Another waiter may have started first while this one was being resolved: queue behind it.
      return this.run(user, signal, search);
    }
    const running = search();
    entry = { running: running.catch(() => {}), waiting: null };
    this.users.set(user, entry);
    try {
      return await running;
    } finally {
      if (this.users.get(user) === entry) this.users.delete(user);
    }
  }
}
