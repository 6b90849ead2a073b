"use client";

import { useId, useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Field, Input, Select } from "@/components/ui/field";
import { PAGE_SIZES, type RangePreset } from "./calendar-params";

const RANGE_LABELS: Record<RangePreset, string> = {
  today: "Today",
  "this-week": "This week",
  "next-week": "Next week",
  yesterday: "Yesterday",
  "last-week": "Last week",
  "last-30-days": "Last 30 days",
  custom: "Custom range",
  all: "All dates",
};

/** The presets in the groups a reader looks for them in: what is coming, what just happened, anything else. */
const RANGE_GROUPS: readonly { label: string; presets: readonly RangePreset[] }[] = [
  { label: "Coming", presets: ["today", "this-week", "next-week"] },
  { label: "Past", presets: ["yesterday", "last-week", "last-30-days"] },
  { label: "Other", presets: ["custom", "all"] },
];

export interface CalendarFilterValues {
  range: RangePreset;
  from: string | null;
  to: string | null;
  importance: number;
  tickers: string[];
  pageSize: number;
  sort: string;
  /** A watchlist id: only its companies (the ticker filter is then off). */
  watchlist?: string | null;
}

/**
 * The filter bar shared by both calendars. Each change resets paging to the first page (a page number means
 * nothing in a different result). Ticker text applies on Enter or when the field loses focus. With
 * `watchlistOptions`, a "Watchlist" select limits the rows to one watchlist's companies; choosing one clears the
 * tickers, whose field is off meanwhile (two lists of companies at once would be a puzzle to read).
 */
export function CalendarFilters({
  values,
  onChange,
  sortOptions,
  rangeOptions,
  watchlistOptions,
  actions,
}: {
  values: CalendarFilterValues;
  onChange: (patch: Partial<CalendarFilterValues> & { page?: number }) => void;
  sortOptions: readonly { value: string; label: string }[];
  rangeOptions: readonly RangePreset[];
  /** The user's watchlists (value = id); the current value is among them even when it names none. */
  watchlistOptions?: readonly { value: string; label: string }[];
  actions?: ReactNode;
}) {
  const id = useId();
  const tickerText = values.tickers.join(", ");
  const [draft, setDraft] = useState<string | null>(null);

  function applyTickers() {
    if (draft === null) return;
    const tickers = draft
      .split(/[\s,]+/)
      .map((t) => t.trim().toUpperCase())
      .filter(Boolean);
    setDraft(null);
    onChange({ tickers, page: 0 });
  }

  return (
    <form
      role="search"
      aria-label="Calendar filters"
      className="flex flex-wrap items-end gap-x-3 gap-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        applyTickers();
      }}
    >
      <Field label="Dates" htmlFor={`${id}-range`}>
        <Select
          id={`${id}-range`}
          value={values.range}
          onChange={(e) => onChange({ range: e.target.value as RangePreset, page: 0 })}
        >
          {RANGE_GROUPS.map((group) => {
            const presets = group.presets.filter((r) => rangeOptions.includes(r));
            return presets.length === 0 ? null : (
              <optgroup key={group.label} label={group.label}>
                {presets.map((r) => (
                  <option key={r} value={r}>
                    {RANGE_LABELS[r]}
                  </option>
                ))}
              </optgroup>
            );
          })}
        </Select>
      </Field>
      {values.range === "custom" ? (
        <>
          <Field label="From" htmlFor={`${id}-from`}>
            <Input
              id={`${id}-from`}
              type="date"
              value={values.from ?? ""}
              max={values.to ?? undefined}
              onChange={(e) => onChange({ from: e.target.value || null, page: 0 })}
            />
          </Field>
          <Field label="To" htmlFor={`${id}-to`}>
            <Input
              id={`${id}-to`}
              type="date"
              value={values.to ?? ""}
              min={values.from ?? undefined}
              onChange={(e) => onChange({ to: e.target.value || null, page: 0 })}
            />
          </Field>
        </>
      ) : null}
      <Field label="Importance" htmlFor={`${id}-importance`}>
        <Select
          id={`${id}-importance`}
          value={String(values.importance)}
          onChange={(e) => onChange({ importance: Number(e.target.value), page: 0 })}
        >
          <option value="0">Any</option>
          {[1, 2, 3, 4, 5].map((n) => (
            <option key={n} value={n}>
              {n === 5 ? "5 only" : `${n} and above`}
            </option>
          ))}
        </Select>
      </Field>
      {watchlistOptions ? (
        <Field label="Watchlist" htmlFor={`${id}-watchlist`}>
          <Select
            id={`${id}-watchlist`}
            className="max-w-52"
            value={values.watchlist ?? ""}
            onChange={(e) => {
              setDraft(null);
              onChange({ watchlist: e.target.value || null, tickers: [], page: 0 });
            }}
          >
            <option value="">All companies</option>
            {watchlistOptions.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </Select>
        </Field>
      ) : null}
      <Field label="Tickers" htmlFor={`${id}-tickers`}>
        <Input
          id={`${id}-tickers`}
          className="w-44"
          disabled={Boolean(values.watchlist)}
          title={values.watchlist ? "The watchlist chooses the companies" : undefined}
          placeholder={values.watchlist ? "From the watchlist" : "e.g. NWSC, ACME"}
          value={values.watchlist ? "" : (draft ?? tickerText)}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={applyTickers}
          autoComplete="off"
          spellCheck={false}
        />
      </Field>
      <Field label="Sort" htmlFor={`${id}-sort`}>
        <Select
          id={`${id}-sort`}
          value={values.sort}
          onChange={(e) => onChange({ sort: e.target.value, page: 0 })}
        >
          {sortOptions.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Rows per page" htmlFor={`${id}-size`}>
        <Select
          id={`${id}-size`}
          value={String(values.pageSize)}
          onChange={(e) => onChange({ pageSize: Number(e.target.value), page: 0 })}
        >
          {PAGE_SIZES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </Select>
      </Field>
      <Button type="submit" className="sr-only">
        Apply
      </Button>
      {actions ? <div className="ml-auto flex items-end gap-2">{actions}</div> : null}
    </form>
  );
}
