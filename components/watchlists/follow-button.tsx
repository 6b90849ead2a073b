"use client";

import { useQuery } from "@tanstack/react-query";
import type { ButtonHTMLAttributes, Ref } from "react";
import { useHotkeys, isTypingTarget } from "@/components/shell/use-hotkeys";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { useFollow, watchlistQueries } from "@/lib/queries/watchlists";

type PassThrough = Omit<
  ButtonHTMLAttributes<HTMLButtonElement>,
  "onClick" | "children" | "aria-pressed" | "aria-label" | "type" | "disabled"
>;

/**
 * Follow / unfollow a company from wherever it appears. Following adds it to the first watchlist (one is created
 * when there is none); unfollowing removes it from every watchlist. With `shortcut`, the `f` key toggles it too
 * (one follow button per page should take the shortcut: only that one listens for keys).
 *
 * `compact` is a star alone, for table rows and result lists: its accessible name stays "Follow AAPL" and
 * `aria-pressed` says whether it is followed (a toggle's name must not change with its state). Its click does not
 * reach the row, so it neither selects nor opens it. Every button reads the one cached watchlist query (a table of
 * 100 rows is 100 observers of one query, one request), and other button attributes (tabIndex, key and mouse
 * handlers) pass through for composite widgets such as the ticker search.
 */
export function FollowButton({
  symbol,
  shortcut = false,
  compact = false,
  className,
  ref,
  ...rest
}: {
  symbol: string;
  shortcut?: boolean;
  compact?: boolean;
  ref?: Ref<HTMLButtonElement>;
} & PassThrough) {
  const upper = symbol.toUpperCase();
  const { data } = useQuery(watchlistQueries.list());
  const follow = useFollow();
  const isFollowing = data?.data.some((l) => l.tickers.includes(upper)) ?? false;
  const toggle = () => follow.mutate({ symbol: upper, follow: !isFollowing });
  const disabled = follow.isPending || data === undefined;

  useHotkeys((event) => {
    if (event.key !== "f" || event.ctrlKey || event.metaKey || event.altKey) return;
    if (isTypingTarget(event.target)) return;
    event.preventDefault();
    toggle();
  }, shortcut);

  if (compact) {
    return (
      <button
        {...rest}
        ref={ref}
        type="button"
        aria-pressed={isFollowing}
        aria-label={`Follow ${upper}`}
        title={`${isFollowing ? `Following ${upper}: unfollow` : `Follow ${upper}`}${shortcut ? " (f)" : ""}`}
        // aria-disabled, not disabled: a disabled button drops focus, which would throw a keyboard user out of
        // the list they are in (the ticker search closes when focus leaves it).
        aria-disabled={disabled || undefined}
        onClick={(event) => {
          event.stopPropagation();
          if (!disabled) toggle();
        }}
        className={cn(
          "hover:bg-surface-2 inline-flex h-6 w-6 shrink-0 items-center justify-center rounded text-[15px] leading-none",
          "aria-disabled:cursor-not-allowed aria-disabled:opacity-50",
          isFollowing ? "text-fg" : "text-muted",
          className,
        )}
        data-testid="follow-toggle"
      >
        <span aria-hidden>{isFollowing ? "★" : "☆"}</span>
      </button>
    );
  }

  return (
    <Button
      {...rest}
      ref={ref}
      className={className}
      variant={isFollowing ? "default" : "ghost"}
      aria-pressed={isFollowing}
      onClick={toggle}
      disabled={disabled}
      title={`${isFollowing ? "Unfollow" : "Follow"} ${upper}${shortcut ? " (f)" : ""}`}
      data-testid="follow-button"
    >
      <span aria-hidden>{isFollowing ? "★" : "☆"}</span>
      {isFollowing ? "Following" : "Follow"}
    </Button>
  );
}
