import "server-only";
import type { AlertMuteScope } from "@/lib/schemas/alerts";
import type { AlertCandidate } from "./rules";

/** A mute in force, as the engine checks it. */
export interface ActiveMute {
  userId: string;
  scope: AlertMuteScope;
  callId: string | null;
  symbol: string | null;
  expiresAtMs: number;
}

/**
 * The users' mutes, indexed for the one question the engine asks of every candidate: has this user silenced this
 * call, or this company? A call mute matches the alert's call; a company mute every alert of its ticker (its calls,
 * its results) until the mute ends (docs/workspace.md, Triage).
 */
export class MuteIndex {
  private readonly byUser = new Map<string, ActiveMute[]>();

  constructor(mutes: readonly ActiveMute[]) {
    for (const mute of mutes) {
      const list = this.byUser.get(mute.userId);
      if (list) list.push(mute);
      else this.byUser.set(mute.userId, [mute]);
    }
  }

  get isEmpty(): boolean {
    return this.byUser.size === 0;
  }

  /** Whether any mute ends with this call (so the engine asks the store to lift them when it ends). */
  endsWith(callId: string): boolean {
    for (const list of this.byUser.values()) if (list.some((m) => m.callId === callId)) return true;
    return false;
  }

  isMuted(candidate: Pick<AlertCandidate, "userId" | "callId" | "symbol">, nowMs: number): boolean {
    const list = this.byUser.get(candidate.userId);
    if (!list) return false;
    const symbol = candidate.symbol.toUpperCase();
    return list.some(
      (m) =>
        m.expiresAtMs > nowMs &&
        (m.scope === "call"
          ? candidate.callId !== null && m.callId === candidate.callId
          : m.symbol !== null && m.symbol.toUpperCase() === symbol),
    );
  }
}
