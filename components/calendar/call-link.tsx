import { IntentLink } from "@/components/ui/intent-link";
import { cn } from "@/components/ui/cn";
import { callHref } from "@/lib/call-links";
import { CALL_STATUS_LABELS, CALL_STATUS_TITLES } from "@/lib/call-status";
import { MISSING } from "@/lib/format";
import type { CallListItem } from "@/lib/schemas/calls";

/**
 * A report's way into its call: the call's state (Live with the accent's pulsing dot, Ended, Summary ready) as a
 * link to the call room; a dash when the report has no call (yet).
 */
export function CallLink({
  call,
  symbol,
  className,
}: {
  call: Pick<CallListItem, "callId" | "status"> | undefined;
  symbol: string;
  className?: string;
}) {
  if (!call) return <span className={cn("text-muted", className)}>{MISSING}</span>;
  const isLive = call.status === "live";
  return (
    <IntentLink
      href={callHref(call.callId)}
      data-testid="call-link"
      data-status={call.status}
      title={`${CALL_STATUS_TITLES[call.status]}: open the call room`}
      aria-label={`${symbol} call, ${CALL_STATUS_LABELS[call.status]}: open the call room`}
      onClick={(e) => e.stopPropagation()}
      className={cn(
        "inline-flex items-center gap-1 hover:underline",
        isLive ? "text-accent font-semibold" : "text-accent",
        className,
      )}
    >
      {isLive ? (
        <span aria-hidden className="bg-accent animate-pulse-dot inline-block size-1.5 rounded-full" />
      ) : null}
      {CALL_STATUS_LABELS[call.status]}
    </IntentLink>
  );
}
