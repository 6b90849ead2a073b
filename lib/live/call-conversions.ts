import type { CallStatus, Segment } from "@/lib/schemas/calls";
import type { SentenceEvent } from "@/lib/schemas/live";

/**
 * The conversions the browser's live cache and the server's live merge share, written once: a call's status only
 * moves forward (live → completed → enriched), and a streamed sentence becomes a transcript segment.
 */

const CALL_STATUS_RANK: Record<CallStatus, number> = { live: 0, completed: 1, enriched: 2 };

/** True when `next` is further along than `current` (statuses never go backwards). */
export function isLaterStatus(next: CallStatus, current: CallStatus): boolean {
  return CALL_STATUS_RANK[next] > CALL_STATUS_RANK[current];
}

/** The later of two statuses. */
export function laterStatus(a: CallStatus, b: CallStatus): CallStatus {
  return isLaterStatus(a, b) ? a : b;
}

type StreamedSentence = Pick<
  SentenceEvent,
  "sequence" | "speaker" | "startMs" | "endMs" | "text" | "confidence"
> & {
  sentiment?: number | null;
};

export function sentenceToSegment(event: StreamedSentence): Segment {
  return {
    sequence: event.sequence,
    speaker: event.speaker,
    speakerName: null,
    startMs: event.startMs,
    endMs: event.endMs,
    text: event.text,
    confidence: event.confidence,
    // The live bus's live estimate; REST's copy (enriched, or the same estimate) replaces it on the next refetch.
    sentiment: event.sentiment ?? null,
    sentimentSource: event.sentiment === null || event.sentiment === undefined ? null : "live",
  };
}
