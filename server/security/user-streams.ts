import "server-only";

/**
 * Every open stream (`/api/stream`, `/api/alerts/stream`) held with the key of the user it serves, so that removing
 * a user ends their streams too, without a restart (docs/workspace.md, Users): a stream outlives the request that
 * passed the session check, so the revocation of feeds, push subscriptions and rules alone left them reading.
 *
 * While any stream is held, the users' keys are checked every `intervalMs` (the users file is re-read at most once
 * a second when it changed, server/auth/users.ts): a stream whose user is no longer active is ended (`revoked`), and
 * its browser's reconnect is refused at the gate since the session's user is gone. `local`, the open instance's
 * owner, stops being active once the file has a user, so the open instance's streams end when sign-in starts to
 * apply. Serving a stream as its user's: server/http/user-sse.ts.
 */

export interface UserStreams {
  /** Holds an open stream of `user`, ended with `close` if the user is removed; returns its release. */
  hold(user: string, close: () => void): () => void;
  /** Ends the streams of users no longer active now (the timer does it on its own); returns how many. */
  sweep(): number;
  size(): number;
}

export interface UserStreamsDeps {
  isActive(user: string): boolean;
  onRevoked?: (user: string, streams: number) => void;
  intervalMs?: number;
}

export function createUserStreams(deps: UserStreamsDeps): UserStreams {
  const byUser = new Map<string, Set<() => void>>();
  let timer: NodeJS.Timeout | null = null;
  let held = 0;

  const sweep = (): number => {
    let ended = 0;
    for (const [user, closes] of [...byUser]) {
      if (deps.isActive(user)) continue;
      const count = closes.size;
      // Copied: each close releases its stream, which deletes it from the set.
      for (const close of [...closes]) close();
      byUser.delete(user);
      ended += count;
      deps.onRevoked?.(user, count);
    }
    return ended;
  };

  const release = (user: string, close: () => void) => {
    const closes = byUser.get(user);
    if (!closes?.delete(close)) return;
    held -= 1;
    if (closes.size === 0) byUser.delete(user);
    if (held === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };

  return {
    hold(user, close) {
      let closes = byUser.get(user);
      if (!closes) byUser.set(user, (closes = new Set()));
      // One entry per stream, even when two streams hand the same function.
      const entry = () => close();
      closes.add(entry);
      held += 1;
      if (!timer) {
        timer = setInterval(sweep, deps.intervalMs ?? 1_000);
        timer.unref();
      }
      return () => release(user, entry);
    },
    sweep,
    size: () => held,
  };
}
