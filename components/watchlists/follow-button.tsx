"use client";

import { useQuery } from "@tanstack/react-query";
import { useHotkeys, isTypingTarget } from "@/components/shell/use-hotkeys";
import { Button } from "@/components/ui/button";
import { useFollow, watchlistQueries } from "@/lib/queries/watchlists";

/**
 * Follow / unfollow a company from wherever it appears. Following adds it to the first watchlist (one is created
 * when there is none); unfollowing removes it from every watchlist. With `shortcut`, the `f` key toggles it too
 * (one follow button per page should take the shortcut).
 */
export function FollowButton({ symbol, shortcut = false }: { symbol: string; shortcut?: boolean }) {
  const upper = symbol.toUpperCase();
  const { data } = useQuery(watchlistQueries.list());
  const follow = useFollow();
  const isFollowing = data?.data.some((l) => l.tickers.includes(upper)) ?? false;
  const toggle = () => follow.mutate({ symbol: upper, follow: !isFollowing });

  useHotkeys((event) => {
    if (!shortcut || event.key !== "f" || event.ctrlKey || event.metaKey || event.altKey) return;
    if (isTypingTarget(event.target)) return;
    event.preventDefault();
    toggle();
  });

  return (
    <Button
      variant={isFollowing ? "default" : "ghost"}
      aria-pressed={isFollowing}
      onClick={toggle}
      disabled={follow.isPending || data === undefined}
      title={`${isFollowing ? "Unfollow" : "Follow"} ${upper}${shortcut ? " (f)" : ""}`}
      data-testid="follow-button"
    >
      <span aria-hidden>{isFollowing ? "★" : "☆"}</span>
      {isFollowing ? "Following" : "Follow"}
    </Button>
  );
}
