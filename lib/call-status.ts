import type { CallStatus } from "@/lib/schemas/calls";

/**
 * One name for each call state, wherever a call is shown (docs/day.md, "One name for each call state"): a call is
 * Live, then Ended, then Summary ready once the service has added speaker names, sentiment and the summary.
 */
export const CALL_STATUS_LABELS: Record<CallStatus, string> = {
  live: "Live",
  completed: "Ended",
  enriched: "Summary ready",
};

/** What each state means, for a tooltip. */
export const CALL_STATUS_TITLES: Record<CallStatus, string> = {
  live: "The call is in progress",
  completed: "The call has ended; speaker names, sentiment and the summary follow shortly",
  enriched: "The call has ended; speaker names, sentiment and the summary are in",
};
