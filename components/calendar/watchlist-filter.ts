import type { Watchlist } from "@/lib/schemas/watchlists";

/**
 * What the calendar pages make of the `watchlist` URL parameter, given the user's watchlists. Pure, so every case
 * is tested without a browser. Ids are the database's decimal ids (the API's own rule); anything else cannot name a
 * watchlist and is reported like a deleted one, without a request.
 */

const WATCHLIST_ID = /^\d{1,15}$/;

export type WatchlistChoice =
  /** No watchlist: every company. */
  | { kind: "all" }
  /** The user's watchlists are not loaded yet. */
  | { kind: "loading"; id: string }
  /** The watchlists could not be loaded, so the id cannot be checked. */
  | { kind: "error"; id: string }
  /** No such watchlist of this user (deleted, another user's, or not an id). */
  | { kind: "unknown"; id: string }
  | { kind: "empty"; list: Watchlist }
  | { kind: "ready"; list: Watchlist };

export function isWatchlistId(value: string): boolean {
  return WATCHLIST_ID.test(value);
}

export function chooseWatchlist(
  id: string | null,
  lists: readonly Watchlist[] | undefined,
  { isError = false }: { isError?: boolean } = {},
): WatchlistChoice {
  if (!id) return { kind: "all" };
  if (!isWatchlistId(id)) return { kind: "unknown", id };
  if (!lists) return isError ? { kind: "error", id } : { kind: "loading", id };
  const list = lists.find((l) => l.id === id);
  if (!list) return { kind: "unknown", id };
  return list.tickers.length === 0 ? { kind: "empty", list } : { kind: "ready", list };
}

/** The select's label for a watchlist: its name and, short, how many companies it holds. */
export function watchlistOptionLabel(list: Pick<Watchlist, "name" | "tickers">): string {
  return `${list.name} (${list.tickers.length})`;
}

/** The status line's words for a watchlist. */
export function watchlistSizeLabel(list: Pick<Watchlist, "name" | "tickers">): string {
  const n = list.tickers.length;
  return `${list.name} (${n} ${n === 1 ? "company" : "companies"})`;
}

/** Whether the choice leaves nothing to ask for, so the page explains instead of showing rows. */
export function needsNotice(choice: WatchlistChoice): boolean {
  return choice.kind === "unknown" || choice.kind === "empty" || choice.kind === "error";
}
