import { Badge } from "@/components/ui/badge";
import { CALL_STATUS_LABELS, CALL_STATUS_TITLES } from "@/lib/call-status";
import type { CallStatus } from "@/lib/schemas/calls";

/** Live = the single accent with a pulsing dot; the other states stay neutral. */
export function CallStatusBadge({ status }: { status: CallStatus }) {
  if (status === "live") {
    return (
      <Badge tone="accent" title={CALL_STATUS_TITLES.live} className="gap-1">
        <span aria-hidden className="bg-accent animate-pulse-dot inline-block size-1.5 rounded-full" />
        {CALL_STATUS_LABELS.live}
      </Badge>
    );
  }
  return (
    <Badge tone="neutral" title={CALL_STATUS_TITLES[status]}>
      {CALL_STATUS_LABELS[status]}
    </Badge>
  );
}
