"use client";

import { formatClock } from "./call-format";
import { useNow } from "./use-now";

/** Time since the call started, ticking while live; the final duration once it has ended. */
export function Elapsed({
  startTime,
  endTime,
  durationSeconds,
  isLive,
  className,
}: {
  startTime: string;
  endTime: string | null;
  durationSeconds: number | null;
  isLive: boolean;
  className?: string;
}) {
  const now = useNow();
  const start = Date.parse(startTime);
  let seconds: number | null = null;
  if (!isLive && durationSeconds !== null) seconds = durationSeconds;
  else if (!isLive && endTime) seconds = (Date.parse(endTime) - start) / 1000;
  else if (now !== null) seconds = Math.max(0, (now - start) / 1000);
  return (
    <span
      className={className ?? "tabular-nums"}
      aria-label={isLive ? `Elapsed ${formatClock(seconds)}` : `Duration ${formatClock(seconds)}`}
    >
      {formatClock(seconds)}
    </span>
  );
}
