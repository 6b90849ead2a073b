import type { ReactNode } from "react";
import { Button } from "./button";
import { LocalTime } from "./local-time";
import { cn } from "./cn";

/** Nothing to show: says why and what to try. */
export function EmptyState({
  title,
  hint,
  className,
}: {
  title: string;
  hint?: ReactNode;
  className?: string;
}) {
  return (
    <div role="status" className={cn("flex flex-col items-center gap-1 px-4 py-10 text-center", className)}>
      <p className="font-medium">{title}</p>
      {hint ? <p className="text-muted">{hint}</p> : null}
    </div>
  );
}

/** Something failed: says what, and offers a retry. */
export function ErrorState({
  title,
  message,
  onRetry,
  className,
}: {
  title: string;
  message?: string;
  onRetry?: () => void;
  className?: string;
}) {
  return (
    <div role="alert" className={cn("flex flex-col items-center gap-2 px-4 py-10 text-center", className)}>
      <p className="text-neg font-medium">{title}</p>
      {message ? <p className="text-muted max-w-prose">{message}</p> : null}
      {onRetry ? <Button onClick={onRetry}>Retry</Button> : null}
    </div>
  );
}

/**
 * The data shown is older than it should be: the server answered from its cache because the market-data service
 * failed. Says what is stale and since when (`fetchedAt`, ISO), in the reader's zone unless `timeZone` says
 * otherwise: short on the same day, with the full time in the tooltip.
 */
export function StaleNote({
  fetchedAt,
  timeZone,
  what,
  className,
}: {
  fetchedAt: string | undefined;
  timeZone?: string;
  what?: string;
  className?: string;
}) {
  const lead = what ? `${what.charAt(0).toUpperCase()}${what.slice(1)}: showing` : "Showing";
  return (
    <p
      role="status"
      data-testid="stale-note"
      className={cn("bg-warn-soft text-2xs text-warn rounded border border-transparent px-2 py-1", className)}
    >
      {lead} data from{" "}
      <LocalTime value={fetchedAt} format="since" timeZone={timeZone} className="font-semibold" /> — the
      market-data service is not answering.
    </p>
  );
}
