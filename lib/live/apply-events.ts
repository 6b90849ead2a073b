import { notifyManager, type QueryClient } from "@tanstack/react-query";
import { callQueries, mergeSegments, type CallEnvelope } from "@/lib/queries/calls";
import { addStartedCalls, liveQueries } from "@/lib/queries/live";
import type { CallListResponse, CallStatus, Segment } from "@/lib/schemas/calls";
import type { CallStartedEvent, LiveMessage } from "@/lib/schemas/live";
import { isLaterStatus, sentenceToSegment } from "./call-conversions";

export { sentenceToSegment } from "./call-conversions";

/**
 * Writes one batch of live events into the query cache, in one notification pass.
 *
 * - `sentence`: appended to the call's cached detail (only if the page holds it: nobody else needs it), one
 *   `setQueryData` per call per batch. A hole in the sequence (events lost while a fetch was in flight, or a first
 *   sentence that is not the call's first) means the cache cannot be trusted: the detail is refetched instead.
 * - `call.started`: added to the /live board in place (the board is not refetched, so no tile moves).
 * - `call.status`: the status changes in place at once (badge, board tile), then the call and the lists are
 *   refetched for what completion brings (end time, MP3, PDF, names, summary). Statuses never go backwards.
 * - `reset`: the stream could not resume, so everything about calls is refetched.
 */
export function applyLiveMessages(client: QueryClient, messages: readonly LiveMessage[]): void {
  if (messages.length === 0) return;
  const sentencesByCall = new Map<string, Segment[]>();
  const started: CallStartedEvent[] = [];
  const statuses = new Map<string, CallStatus>();
  let isReset = false;

  for (const message of messages) {
    switch (message.event) {
      case "sentence": {
        const list = sentencesByCall.get(message.data.callId) ?? [];
        list.push(sentenceToSegment(message.data));
        sentencesByCall.set(message.data.callId, list);
        break;
      }
      case "call.started":
        started.push(message.data);
        break;
      case "call.status": {
        const previous = statuses.get(message.data.callId);
        if (!previous || isLaterStatus(message.data.status, previous)) {
          statuses.set(message.data.callId, message.data.status);
        }
        break;
      }
      case "reset":
        isReset = true;
        break;
    }
  }

  notifyManager.batch(() => {
    if (isReset) {
      void client.invalidateQueries({ queryKey: callQueries.all() });
      return;
    }

    const gaps: string[] = [];
    for (const [callId, incoming] of sentencesByCall) {
      const key = callQueries.detail(callId).queryKey;
      const cached = client.getQueryData<CallEnvelope>(key);
      if (!cached) continue;
      const segments = cached.data.segments;
      const merged = mergeSegments(segments, incoming);
      if (merged === segments) continue;
      if (opensGap(segments, incoming)) {
        gaps.push(callId);
        continue;
      }
      client.setQueryData<CallEnvelope>(key, { ...cached, data: { ...cached.data, segments: merged } });
    }
    for (const callId of gaps)
      void client.invalidateQueries({ queryKey: callQueries.detail(callId).queryKey });

    if (started.length > 0) {
      client.setQueryData<CallListResponse>(liveQueries.board().queryKey, (board) =>
        board ? addStartedCalls(board, started) : board,
      );
    }

    if (statuses.size > 0) {
      for (const [callId, status] of statuses) {
        const key = callQueries.detail(callId).queryKey;
        client.setQueryData<CallEnvelope>(key, (cached) =>
          cached && isLaterStatus(status, cached.data.status)
            ? { ...cached, data: { ...cached.data, status } }
            : cached,
        );
        void client.invalidateQueries({ queryKey: key });
      }
      client.setQueryData<CallListResponse>(liveQueries.board().queryKey, (board) => {
        if (!board) return board;
        let changed = false;
        const data = board.data.map((c) => {
          const status = statuses.get(c.callId);
          if (!status || !isLaterStatus(status, c.status)) return c;
          changed = true;
          return { ...c, status };
        });
        return changed ? { ...board, data } : board;
      });
      void client.invalidateQueries({ queryKey: callQueries.lists() });
      void client.invalidateQueries({ queryKey: callQueries.summaryLists() });
    }
  });
}

/**
 * True when the incoming sentences do not continue the cached transcript (the next one expected is last + 1).
 * Only the seam is checked: holes REST itself may have are not ours to fix, and must not cause refetch loops.
 */
export function opensGap(segments: readonly Segment[], incoming: readonly Segment[]): boolean {
  const last = segments[segments.length - 1];
  if (!last) return false;
  let next = Infinity;
  for (const s of incoming) if (s.sequence > last.sequence && s.sequence < next) next = s.sequence;
  return next !== Infinity && next > last.sequence + 1;
}

export type Scheduler = (flush: () => void) => void;

/**
 * Gathers events and hands them over once per animation frame: a burst (a replay after reconnecting, a fast
 * speaker) becomes one cache write and one render instead of hundreds. Background tabs get no animation frames, so
 * there a timer takes over and the cache stays current for when the reader comes back.
 */
export function createFrameBatcher(
  onFlush: (batch: LiveMessage[]) => void,
  schedule: Scheduler = defaultScheduler,
) {
  let queue: LiveMessage[] = [];
  let isScheduled = false;
  let isDisposed = false;
  const flush = () => {
    isScheduled = false;
    if (isDisposed || queue.length === 0) return;
    const batch = queue;
    queue = [];
    onFlush(batch);
  };
  return {
    push(message: LiveMessage) {
      if (isDisposed) return;
      queue.push(message);
      if (!isScheduled) {
        isScheduled = true;
        schedule(flush);
      }
    },
    /** Delivers what is queued now (before closing, in tests). */
    flush,
    dispose() {
      isDisposed = true;
      queue = [];
    },
  };
}

const defaultScheduler: Scheduler = (flush) => {
  if (
    typeof document !== "undefined" &&
    document.visibilityState === "visible" &&
    typeof requestAnimationFrame === "function"
  ) {
    requestAnimationFrame(() => flush());
  } else {
    setTimeout(flush, 250);
  }
};
