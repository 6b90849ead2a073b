"use client";

import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { sessionQueries, signOut } from "@/lib/queries/session";

/**
 * Who is signed in, and a way out. Renders nothing when the server runs without sign-in (local use) or the
 * session cannot be read. After sign-out the browser loads /login as a full page: the query cache holds the
 * signed-out user's data and must not survive into the next session. `compact` (narrow screens) leaves the name
 * to the button's title.
 */
export function UserMenu({ compact = false, className }: { compact?: boolean; className?: string }) {
  const errorId = useId();
  const session = useQuery(sessionQueries.current());
  const [state, setState] = useState<"idle" | "busy" | "failed">("idle");
  const user = session.data?.authEnabled ? session.data.username : null;
  if (!user) return null;

  const onSignOut = async () => {
    setState("busy");
    try {
      await signOut();
      // A full page load on purpose (see above): router.push would keep the query cache.
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination
      window.location.assign("/login");
    } catch {
      setState("failed");
    }
  };

  return (
    <div className={cn("border-line ml-1 flex shrink-0 items-center gap-1.5 border-l pl-2.5", className)}>
      {compact ? null : (
        <span
          className="text-muted max-w-32 truncate text-[13px]"
          title={`Signed in as ${user}`}
          data-testid="signed-in-user"
        >
          <span className="sr-only">Signed in as </span>
          {user}
        </span>
      )}
      <Button
        onClick={() => void onSignOut()}
        disabled={state === "busy"}
        aria-describedby={state === "failed" ? errorId : undefined}
        title={`Sign out ${user}`}
      >
        Sign out
      </Button>
      {state === "failed" ? (
        <span id={errorId} role="alert" className="text-2xs text-neg">
          Sign-out failed
        </span>
      ) : null}
    </div>
  );
}
