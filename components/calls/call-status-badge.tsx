import { Badge } from "@/components/ui/badge";
import type { CallStatus } from "@/lib/schemas/calls";

const TITLES: Record<CallStatus, string> = {
  live: "The call is in progress",
  completed: "The call has ended; names, sentiment and summary follow shortly",
  enriched: "The call has ended and is enriched with speaker names, sentiment and a summary",
};

/** Live = the single accent with a pulsing dot; the other states stay neutral. */
export function CallStatusBadge({ status }: { status: CallStatus }) {
  if (status === "live") {
    return (
      <Badge tone="accent" title={TITLES.live} className="gap-1">
        <span aria-hidden className="bg-accent animate-pulse-dot inline-block size-1.5 rounded-full" />
        Live
      </Badge>
    );
  }
  return (
    <Badge tone="neutral" title={TITLES[status]}>
      {status === "completed" ? "Completed" : "Enriched"}
    </Badge>
  );
}
