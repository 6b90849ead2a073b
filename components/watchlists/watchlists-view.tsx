"use client";

import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { TickerSearch } from "@/components/shell/ticker-search";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/field";
import { IntentLink } from "@/components/ui/intent-link";
import { EmptyState, ErrorState } from "@/components/ui/panel-state";
import { Skeleton } from "@/components/ui/skeleton";
import {
  useCreateWatchlist,
  useDeleteWatchlist,
  useUpdateWatchlist,
  watchlistQueries,
} from "@/lib/queries/watchlists";
import type { Watchlist } from "@/lib/schemas/watchlists";
import { CalendarFeed } from "./calendar-feed";
import { WatchlistCalendars } from "./watchlist-calendars";

/** Every watchlist of the user: create, rename-free add/remove of tickers, delete; the selected one's calendars. */
export function WatchlistsView() {
  const { data, error, isPending, refetch } = useQuery(watchlistQueries.list());
  const [selectedId, setSelectedId] = useState<string | null>(null);
  if (isPending) return <Skeleton className="h-40 w-full" />;
  if (error)
    return (
      <ErrorState
        title="Could not load your watchlists"
        message={error.message}
        onRetry={() => void refetch()}
      />
    );
  const lists = data.data;
  const selected = lists.find((l) => l.id === selectedId) ?? lists[0] ?? null;
  return (
    <div className="flex flex-col gap-4">
      <CreateWatchlist />
      {lists.length === 0 ? (
        <EmptyState
          title="No watchlists yet"
          hint="Create one above, or press Follow on a company or call."
        />
      ) : (
        <div className="grid gap-3 md:grid-cols-2 xl:grid-cols-3">
          {lists.map((list) => (
            <WatchlistCard
              key={list.id}
              list={list}
              isSelected={list.id === selected?.id}
              onSelect={() => setSelectedId(list.id)}
            />
          ))}
        </div>
      )}
      {selected ? <WatchlistCalendars list={selected} /> : null}
      <CalendarFeed />
    </div>
  );
}

function CreateWatchlist() {
  const create = useCreateWatchlist();
  const [name, setName] = useState("");
  const [tickers, setTickers] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const list = tickers
      .split(/[\s,]+/)
      .map((t) => t.trim())
      .filter(Boolean);
    create.mutate({ name, tickers: list }, { onSuccess: () => (setName(""), setTickers("")) });
  };
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-2" aria-label="New watchlist">
      <Field label="New watchlist" htmlFor="watchlist-name">
        <Input
          id="watchlist-name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="Semiconductors"
          className="w-48"
        />
      </Field>
      <Field label="Tickers (optional)" htmlFor="watchlist-tickers">
        <Input
          id="watchlist-tickers"
          value={tickers}
          onChange={(e) => setTickers(e.target.value)}
          placeholder="NWSC, ACME"
          className="w-56"
        />
      </Field>
      <Button type="submit" variant="primary" disabled={create.isPending}>
        Create
      </Button>
      {create.error ? (
        <p role="alert" className="text-neg w-full text-[13px]">
          {create.error.message}
        </p>
      ) : null}
    </form>
  );
}

function WatchlistCard({
  list,
  isSelected,
  onSelect,
}: {
  list: Watchlist;
  isSelected: boolean;
  onSelect: () => void;
}) {
  const update = useUpdateWatchlist();
  const remove = useDeleteWatchlist();
  return (
    <section
      aria-label={`Watchlist ${list.name}`}
      data-testid="watchlist"
      className={`border-line rounded border p-3 ${isSelected ? "ring-accent ring-1" : ""}`}
    >
      <div className="mb-2 flex items-center gap-2">
        <h2 className="min-w-0 flex-1 truncate font-semibold">{list.name}</h2>
        <span className="text-2xs text-muted tabular-nums">{list.tickers.length} tickers</span>
        <Button variant={isSelected ? "default" : "ghost"} onClick={onSelect} aria-pressed={isSelected}>
          Calendars
        </Button>
        <Button
          variant="ghost"
          onClick={() => remove.mutate(list.id)}
          aria-label={`Delete watchlist ${list.name}`}
        >
          Delete
        </Button>
      </div>
      <ul className="mb-2 flex flex-wrap gap-1" aria-label={`Tickers of ${list.name}`}>
        {list.tickers.map((t) => (
          <li
            key={t}
            className="border-line inline-flex h-6 items-center gap-1 rounded border pl-1.5 text-[12px]"
          >
            <IntentLink href={`/companies/${encodeURIComponent(t)}`} className="font-medium hover:underline">
              {t}
            </IntentLink>
            <button
              type="button"
              className="text-muted hover:text-fg px-1"
              aria-label={`Remove ${t} from ${list.name}`}
              onClick={() => update.mutate({ id: list.id, patch: { remove: [t] } })}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <TickerSearch
        label={`Add a ticker to ${list.name}`}
        placeholder="Add ticker or company"
        transcriptSearch={false}
        exclude={list.tickers}
        onSelect={(m) => update.mutate({ id: list.id, patch: { add: [m.ticker] } })}
      />
      {update.error ? (
        <p role="alert" className="text-neg mt-1 text-[13px]">
          {update.error.message}
        </p>
      ) : null}
    </section>
  );
}
