"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useDeferredValue, useEffect, useId, useRef, useState, type KeyboardEvent, type Ref } from "react";
import { cn } from "@/components/ui/cn";
import { FollowButton } from "@/components/watchlists/follow-button";
import { symbolQueries } from "@/lib/queries/symbols";
import type { SymbolMatch } from "@/lib/schemas/symbols";
import { SEARCH_QUERY_MAX } from "@/lib/schemas/search-values";

/**
 * A ticker/company search as an ARIA 1.2 combobox (input + listbox, aria-activedescendant): type, move with the
 * arrow keys, Enter picks, Escape closes then clears. What "pick" means is the caller's (open the company, add it
 * to a comparison). With `transcriptSearch` (the default), the last option searches every call's transcript for the
 * text instead (/search).
 *
 * With `follow`, each company has a follow star beside its option. The stars are buttons outside the listbox (an
 * option may not hold a control), in a column aligned with the options: focus stays in the input as before, so
 * arrows, Enter (opens the company) and Escape are unchanged; Tab moves to the highlighted company's star (the only
 * star in the tab order), arrows move between stars, Escape or Shift+Tab goes back to the input. A mouse click on a
 * star does not take focus from the input.
 */
export function TickerSearch({
  onSelect,
  label = "Search tickers",
  placeholder = "Search ticker or company",
  inputRef,
  className,
  exclude,
  hint,
  transcriptSearch = true,
  follow = false,
}: {
  onSelect: (match: SymbolMatch) => void;
  label?: string;
  placeholder?: string;
  inputRef?: Ref<HTMLInputElement>;
  className?: string;
  exclude?: readonly string[];
  hint?: React.ReactNode;
  transcriptSearch?: boolean;
  follow?: boolean;
}) {
  const router = useRouter();
  const id = useId();
  const listId = `${id}-list`;
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const q = useDeferredValue(text.trim());
  const { data, isFetching, isError, isPlaceholderData } = useQuery({
    ...symbolQueries.search(q),
    placeholderData: (prev) => prev,
  });
  // The companies for what is typed are not in yet (the deferred query lags the input, or its answer is on its way):
  // an Enter now would pick from an older list, or the transcript search when there is none, so it waits for them.
  const resultsPending =
    text.trim().length > 0 && (text.trim() !== q || data === undefined || isPlaceholderData) && !isError;
  const pendingEnter = useRef(false);
  const matches = (q.length > 0 ? (data?.data ?? []) : []).filter((m) => !exclude?.includes(m.ticker));
  const showList = open && q.length > 0;
  const offersTranscripts = transcriptSearch && q.length > 0 && q.length <= SEARCH_QUERY_MAX;
  const optionCount = matches.length + (offersTranscripts ? 1 : 0);
  const activeIndex = Math.min(active, Math.max(0, optionCount - 1));

  useEffect(() => {
    // A new query starts at its best match.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setActive(0);
  }, [q]);

  function pick(index: number) {
    const match = matches[index];
    if (match) onSelect(match);
    else if (offersTranscripts && index === matches.length) router.push(`/search?q=${encodeURIComponent(q)}`);
    else return;
    setText("");
    setOpen(false);
  }

  useEffect(() => {
    if (resultsPending || !pendingEnter.current) return;
    pendingEnter.current = false;
    // The Enter the reader pressed, carried out now that its results are here.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (optionCount > 0) pick(activeIndex);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs when the awaited results arrive, with them
  }, [resultsPending]);

  function onStarKey(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const next =
      event.key === "ArrowDown"
        ? Math.min(matches.length - 1, index + 1)
        : event.key === "ArrowUp"
          ? Math.max(0, index - 1)
          : null;
    if (next !== null) {
      event.preventDefault();
      setActive(next);
      document.getElementById(`${id}-star-${next}`)?.focus();
    } else if (event.key === "Escape") {
      event.preventDefault();
      document.getElementById(`${id}-input`)?.focus();
    }
  }

  let status = "";
  if (showList) {
    if (isError) status = "Search failed. Try again.";
    else if (optionCount === 0) status = isFetching ? "Searching…" : `No company matches “${q}”.`;
  }

  return (
    <div
      className={cn("relative", className)}
      // The list closes when focus leaves the search as a whole, not when it moves from the input to a star.
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <label htmlFor={`${id}-input`} className="sr-only">
        {label}
      </label>
      <input
        id={`${id}-input`}
        ref={inputRef}
        type="text"
        role="combobox"
        aria-expanded={showList && optionCount > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={showList && activeIndex < optionCount ? `${id}-opt-${activeIndex}` : undefined}
        autoComplete="off"
        spellCheck={false}
        placeholder={placeholder}
        value={text}
        onChange={(e) => {
          pendingEnter.current = false;
          setText(e.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        aria-describedby={follow ? `${id}-follow-hint` : undefined}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown") {
            e.preventDefault();
            setOpen(true);
            setActive(Math.min(optionCount - 1, activeIndex + 1));
          } else if (e.key === "ArrowUp") {
            e.preventDefault();
            setActive(Math.max(0, activeIndex - 1));
          } else if (e.key === "Enter") {
            if (resultsPending) {
              e.preventDefault();
              pendingEnter.current = true;
            } else if (showList && optionCount > 0) {
              e.preventDefault();
              pick(activeIndex);
            }
          } else if (e.key === "Escape") {
            if (showList) setOpen(false);
            else setText("");
          }
        }}
        className="border-line bg-canvas placeholder:text-muted h-7 w-full rounded border pr-8 pl-2 text-[13px]"
      />
      {hint ? <span className="pointer-events-none absolute top-1 right-1.5">{hint}</span> : null}
      {follow ? (
        <span id={`${id}-follow-hint`} className="sr-only">
          Tab reaches the follow button of the highlighted company.
        </span>
      ) : null}
      <div
        className={cn(
          "border-line-strong bg-canvas absolute top-full right-0 z-40 mt-1 max-h-80 overflow-auto rounded border py-1 shadow-lg",
          // With stars (the header's search, at the right edge) the list grows leftwards, a little wider, so it
          // never runs off a phone's screen, which would scroll the page sideways when a star takes focus.
          follow ? "w-[max(100%,18rem)]" : "left-0 min-w-64",
          showList && optionCount > 0 ? "flex items-start" : "hidden",
        )}
      >
        <ul id={listId} role="listbox" aria-label={label} className="min-w-0 flex-1">
          {matches.map((m, i) => (
            <li
              key={m.ticker}
              id={`${id}-opt-${i}`}
              role="option"
              aria-selected={i === activeIndex}
              // mousedown, not click: the input's blur would close the list first.
              onMouseDown={(e) => {
                e.preventDefault();
                pick(i);
              }}
              onMouseMove={() => setActive(i)}
              className={cn(
                "flex h-8 cursor-pointer items-center gap-2 px-2 text-[13px]",
                i === activeIndex && "bg-accent-soft",
              )}
            >
              <span className="w-14 shrink-0 font-mono font-semibold">{m.ticker}</span>
              <span className="truncate">{m.name}</span>
              {m.exchange ? <span className="text-2xs text-muted ml-auto shrink-0">{m.exchange}</span> : null}
            </li>
          ))}
          {offersTranscripts ? (
            <li
              id={`${id}-opt-${matches.length}`}
              role="option"
              aria-selected={activeIndex === matches.length}
              data-testid="search-transcripts-option"
              onMouseDown={(e) => {
                e.preventDefault();
                pick(matches.length);
              }}
              onMouseMove={() => setActive(matches.length)}
              className={cn(
                "border-line flex h-8 cursor-pointer items-center gap-2 px-2 text-[13px]",
                matches.length > 0 && "border-t",
                activeIndex === matches.length && "bg-accent-soft",
              )}
            >
              <span className="truncate">
                Search transcripts for <span className="font-semibold">“{q}”</span>
              </span>
            </li>
          ) : null}
        </ul>
        {follow && matches.length > 0 ? (
          <div role="group" aria-label="Follow" className="flex shrink-0 flex-col">
            {matches.map((m, i) => (
              <span
                key={m.ticker}
                className={cn("flex h-8 items-center pr-1", i === activeIndex && "bg-accent-soft")}
              >
                <FollowButton
                  symbol={m.ticker}
                  compact
                  id={`${id}-star-${i}`}
                  tabIndex={i === activeIndex ? 0 : -1}
                  onMouseDown={(e) => e.preventDefault()}
                  onMouseMove={() => setActive(i)}
                  onFocus={() => setActive(i)}
                  onKeyDown={(e) => onStarKey(e, i)}
                />
              </span>
            ))}
          </div>
        ) : null}
      </div>
      <div
        aria-live="polite"
        className={cn(
          status
            ? "border-line-strong bg-canvas text-muted absolute top-full left-0 z-40 mt-1 min-w-64 rounded border px-2 py-2 text-[13px] shadow-lg"
            : "sr-only",
        )}
      >
        {status}
      </div>
    </div>
  );
}
