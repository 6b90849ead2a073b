"use client";

import { useQuery } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import { alertQueries, useUnmute } from "@/lib/queries/alerts";

/** What the user silenced, and until when, each with Unmute. Nothing when nothing is muted. */
export function AlertMutes() {
  const mutes = useQuery(alertQueries.mutes());
  const unmute = useUnmute();
  const list = mutes.data?.data ?? [];
  if (list.length === 0) return null;
  return (
    <ul
      className="text-2xs flex flex-wrap items-center gap-2"
      aria-label="Muted calls and companies"
      data-testid="alert-mutes"
    >
      <li className="text-muted">Muted:</li>
      {list.map((mute) => (
        <li
          key={mute.id}
          data-mute-scope={mute.scope}
          className="border-line flex items-center gap-1.5 rounded border py-0.5 pr-0.5 pl-2"
        >
          <span className="text-fg font-medium">
            {mute.scope === "call" ? `${mute.symbol ?? "A"} call` : mute.symbol}
          </span>
          <span className="text-muted">
            {mute.callId ? "until the call ends" : "until"}
            {mute.callId ? null : (
              <>
                {" "}
                <LocalTime value={mute.expiresAt} format="since" />
              </>
            )}
          </span>
          <Button
            variant="ghost"
            className="h-5 px-1.5"
            onClick={() => unmute.mutate(mute)}
            disabled={unmute.isPending}
            aria-label={`Unmute ${mute.scope === "call" ? `the ${mute.symbol ?? ""} call` : mute.symbol}`}
          >
            Unmute
          </Button>
        </li>
      ))}
    </ul>
  );
}
