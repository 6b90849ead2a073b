"use client";

import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useState, type FormEvent } from "react";
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
import { formatCount } from "@/lib/format";
import { plainMessage } from "@/lib/plain-errors";
import { alertQueries } from "@/lib/queries/alerts";
import { CalendarFeed } from "./calendar-feed";

/**
 * The selected list's calendars (the main calendars' table, columns and cards) come after the lists: server-rendered
 * as ever, their code fetched once the page is up rather than with its first load (docs/performance.md, First-load
 * JS).
 */
const WatchlistCalendars = lazy(() =>
  import("./watchlist-calendars").then((m) => ({ default: m.WatchlistCalendars })),
);

/**
 * Every watchlist of the user: create, rename, add and remove tickers (a ticker the market-data service does not
 * know is kept, and said), delete after saying what goes with it (its alert rules); the selected one's calendars.
 */
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
      {selected ? (
        <Suspense fallback={<Skeleton className="h-64 w-full" />}>
          <WatchlistCalendars list={selected} />
        </Suspense>
      ) : null}
      <CalendarFeed />
    </div>
  );
}

function CreateWatchlist() {
  const create = useCreateWatchlist();
  const [name, setName] = useState("");
  const [tickers, setTickers] = useState("");
  const [unknown, setUnknown] = useState<string[]>([]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const list = tickers
      .split(/[\s,]+/)
      .map((t) => t.trim())
      .filter(Boolean);
    create.mutate(
      { name, tickers: list },
      {
        onSuccess: (answer) => {
          setName("");
          setTickers("");
          setUnknown(answer.meta?.unknownTickers ?? []);
        },
      },
    );
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
          {plainMessage(create.error)}
        </p>
      ) : null}
      <UnknownTickers tickers={unknown} />
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
  const rules = useQuery(alertQueries.rules());
  const [mode, setMode] = useState<"view" | "rename" | "confirm-delete">("view");
  const [name, setName] = useState(list.name);
  const [unknown, setUnknown] = useState<string[]>([]);
  const scopedRules = rules.data?.data.filter((r) => r.watchlistId === list.id).length ?? 0;
  const rename = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim() || name.trim() === list.name) return setMode("view");
    update.mutate({ id: list.id, patch: { name: name.trim() } }, { onSuccess: () => setMode("view") });
  };
  return (
    <section
      aria-label={`Watchlist ${list.name}`}
      data-testid="watchlist"
      className={`border-line rounded border p-3 ${isSelected ? "ring-accent ring-1" : ""}`}
    >
      {mode === "rename" ? (
        <form onSubmit={rename} className="mb-2 flex items-center gap-2" aria-label={`Rename ${list.name}`}>
          <Input
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-label="Watchlist name"
            maxLength={80}
            className="min-w-0 flex-1"
            autoFocus
            onKeyDown={(e) => {
              if (e.key === "Escape") setMode("view");
            }}
          />
          <Button type="submit" variant="primary" disabled={update.isPending}>
            Save
          </Button>
          <Button variant="ghost" onClick={() => (setName(list.name), setMode("view"))}>
            Cancel
          </Button>
        </form>
      ) : (
        <div className="mb-2 flex items-center gap-1">
          <h2 className="min-w-0 flex-1 truncate font-semibold">{list.name}</h2>
          <span className="text-2xs text-muted tabular-nums">
            {formatCount(list.tickers.length, "ticker")}
          </span>
          <Button variant={isSelected ? "default" : "ghost"} onClick={onSelect} aria-pressed={isSelected}>
            Calendars
          </Button>
          <Button
            variant="ghost"
            onClick={() => (setName(list.name), setMode("rename"))}
            aria-label={`Rename watchlist ${list.name}`}
          >
            Rename
          </Button>
          <Button
            variant="ghost"
            onClick={() => setMode("confirm-delete")}
            aria-label={`Delete watchlist ${list.name}`}
          >
            Delete
          </Button>
        </div>
      )}
      {mode === "confirm-delete" ? (
        <div
          role="alertdialog"
          aria-label={`Delete ${list.name}?`}
          className="border-neg/40 bg-neg-soft mb-2 flex flex-wrap items-center gap-2 rounded border px-2 py-1.5 text-[13px]"
        >
          <span className="min-w-0 flex-1">
            Delete “{list.name}” and its {formatCount(list.tickers.length, "ticker")}?
            {scopedRules > 0
              ? ` Its ${formatCount(scopedRules, "alert rule")} go${scopedRules === 1 ? "es" : ""} too (the alerts they fired stay).`
              : " No alert rule uses it."}
          </span>
          <Button
            variant="primary"
            onClick={() => remove.mutate(list.id)}
            disabled={remove.isPending}
            autoFocus
          >
            Delete watchlist
          </Button>
          <Button variant="ghost" onClick={() => setMode("view")}>
            Keep it
          </Button>
        </div>
      ) : null}
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
        onSelect={(m) =>
          update.mutate(
            { id: list.id, patch: { add: [m.ticker] } },
            { onSuccess: (answer) => setUnknown(answer.meta?.unknownTickers ?? []) },
          )
        }
      />
      {update.error || remove.error ? (
        <p role="alert" className="text-neg mt-1 text-[13px]">
          {plainMessage(update.error ?? remove.error)}
        </p>
      ) : null}
      <UnknownTickers tickers={unknown} />
    </section>
  );
}

/** Says which tickers the market-data service does not know (kept in the list: remove them if they were typos). */
function UnknownTickers({ tickers }: { tickers: readonly string[] }) {
  if (tickers.length === 0) return null;
  return (
    <p role="status" className="text-warn w-full text-[13px]" data-testid="unknown-tickers">
      {tickers.join(", ")} {tickers.length === 1 ? "is" : "are"} not a company the market-data service knows:
      kept in the list, but {tickers.length === 1 ? "it" : "they"} will show no reports. Remove{" "}
      {tickers.length === 1 ? "it" : "them"} if it was a typo.
    </p>
  );
}
