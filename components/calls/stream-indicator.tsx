"use client";

import { formatTimeInZone } from "@/lib/format";
import type { LiveStreamStatus } from "@/lib/live/use-live-stream";

/**
 * Says when live updates are not arriving. Silent while connected: a calm screen is the normal case. While the
 * browser reconnects it says since when the page has been without updates (the data shown is stale from then).
 */
export function StreamIndicator({ status }: { status: LiveStreamStatus }) {
  if (status.state === "open") {
    return (
      <span className="sr-only" role="status">
        Live updates connected
      </span>
    );
  }
  if (status.state === "connecting") {
    return (
      <span role="status" className="text-2xs text-muted">
        Connecting…
      </span>
    );
  }
  return (
    <span
      role="status"
      data-testid="stream-reconnecting"
      className="bg-warn-soft text-2xs text-warn inline-flex items-center gap-1 rounded px-1.5 py-0.5"
    >
      <span aria-hidden className="bg-warn animate-pulse-dot inline-block size-1.5 rounded-full" />
      Reconnecting…
      {status.downSince ? (
        <span> no updates since {formatTimeInZone(new Date(status.downSince))}</span>
      ) : null}
    </span>
  );
}
