import { isFact } from "@/lib/insights/fact";
import type { Alert } from "@/lib/schemas/alerts";
import type { Change, Figure, Insights, QaTurn } from "@/lib/schemas/insights";

export interface CatchUp {
  figures: Figure[];
  changes: Change[];
  questions: QaTurn[];
  alerts: Alert[];
}

/**
 * What the call said after sentence `since`: figures stated as fact, changes flagged, questions asked, and the
 * reader's alerts on those sentences (an alert about the call as a whole has no sentence to place it after).
 */
export function catchUpItems(
  insights: Insights,
  since: number,
  alerts: readonly Alert[] = [],
  callId?: string,
): CatchUp {
  return {
    figures: insights.figures.filter((f) => f.sequence > since && isFact(f)),
    changes: insights.changes.filter((c) => c.sequence !== null && c.sequence > since),
    questions: insights.qa.turns.filter((t) => t.sequence > since),
    alerts: alerts.filter((a) => a.callId === callId && a.sequence !== null && a.sequence > since),
  };
}

export const catchUpCount = (c: CatchUp) =>
  c.figures.length + c.changes.length + c.questions.length + c.alerts.length;

const KEY = "callroom:seen:";

/** The last sentence the reader had in front of them on this call (this tab's session), or null. */
export function readSeen(callId: string, storage: Pick<Storage, "getItem"> | undefined): number | null {
  const raw = storage?.getItem(KEY + callId);
  if (raw === null || raw === undefined) return null;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 0 ? n : null;
}

export function writeSeen(
  callId: string,
  sequence: number,
  storage: Pick<Storage, "setItem"> | undefined,
): void {
  try {
    storage?.setItem(KEY + callId, String(sequence));
  } catch {
    // Storage full or disabled: the catch-up is a convenience, the call room works without it.
  }
}
