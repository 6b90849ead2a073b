"use client";

import { useQuery } from "@tanstack/react-query";
import { Button, buttonClass } from "@/components/ui/button";
import { IntentLink } from "@/components/ui/intent-link";
import { EmptyState, ErrorState } from "@/components/ui/panel-state";
import { isApiError } from "@/lib/queries/fetch-json";
import { watchlistQueries } from "@/lib/queries/watchlists";
import {
  chooseWatchlist,
  watchlistOptionLabel,
  watchlistSizeLabel,
  type WatchlistChoice,
} from "./watchlist-filter";

/**
 * The calendar pages' watchlist filter: the user's watchlists (the cached list the follow stars read too), what the
 * URL's id stands for, and the select's options.
 */
export function useWatchlistFilter(id: string | null) {
  const lists = useQuery(watchlistQueries.list());
  const choice = chooseWatchlist(id, lists.data?.data, { isError: lists.isError });
  const options = (lists.data?.data ?? []).map((l) => ({ value: l.id, label: watchlistOptionLabel(l) }));
  if (id && !options.some((o) => o.value === id))
    options.push({ value: id, label: choice.kind === "loading" ? "Loading…" : "Unknown watchlist" });
  return {
    choice,
    options,
    /** The watchlist whose rows to ask for: only a known, non-empty one. */
    readyId: choice.kind === "ready" ? choice.list.id : null,
    retryLists: () => void lists.refetch(),
  };
}

/** A 404 from the watchlist's calendar (deleted in another tab since the list was cached) means unknown too. */
export function withCalendarError(choice: WatchlistChoice, error: unknown): WatchlistChoice {
  if (choice.kind === "ready" && isApiError(error) && error.status === 404)
    return { kind: "unknown", id: choice.list.id };
  return choice;
}

export function isTruncated(data: unknown): boolean {
  const meta = (data as { meta?: { isTruncated?: unknown } } | undefined)?.meta;
  return meta?.isTruncated === true;
}

/** The end of the status line: which watchlist the rows are limited to, and whether the merge was cut. */
export function WatchlistSummary({ choice, isTruncated }: { choice: WatchlistChoice; isTruncated: boolean }) {
  if (choice.kind !== "ready" && choice.kind !== "empty") return null;
  return (
    <>
      {" · "}watchlist <span className="text-fg font-medium">{watchlistSizeLabel(choice.list)}</span>
      {isTruncated ? " · more rows than one view holds: narrow the dates" : ""}
    </>
  );
}

/** Why a watchlist shows no rows, with the way back to every company; null when the rows can be asked for. */
export function WatchlistNotice({
  choice,
  onShowAll,
  onRetry,
  what,
}: {
  choice: WatchlistChoice;
  onShowAll: () => void;
  onRetry: () => void;
  /** "reports" or "deals". */
  what: string;
}) {
  const actions = (
    <span className="mt-2 flex flex-wrap justify-center gap-2">
      <Button variant="primary" onClick={onShowAll}>
        Show all companies
      </Button>
      <IntentLink href="/watchlists" className={buttonClass("default")}>
        Manage watchlists
      </IntentLink>
    </span>
  );
  if (choice.kind === "unknown")
    return (
      <div
        role="status"
        className="border-line flex flex-col items-center gap-1 rounded border px-4 py-10 text-center"
        data-testid="watchlist-missing"
      >
        <p className="font-medium">This watchlist does not exist</p>
        <p className="text-muted max-w-prose">
          The link names a watchlist (“{choice.id.slice(0, 40)}”) that was deleted or is not one of yours.
        </p>
        {actions}
      </div>
    );
  if (choice.kind === "empty")
    return (
      <EmptyState
        className="border-line rounded border"
        title={`“${choice.list.name}” has no companies yet`}
        hint={
          <>
            Its {what} appear here once it holds companies: add tickers on the Watchlists page, or follow
            companies with the ☆ beside each row of all companies.
            {actions}
          </>
        }
      />
    );
  if (choice.kind === "error")
    return (
      <ErrorState
        className="border-line rounded border"
        title="Could not load your watchlists."
        message="The calendar cannot be limited to a watchlist until they load."
        onRetry={onRetry}
      />
    );
  return null;
}
