"use client";

import { useMemo } from "react";
import { IntentLink } from "@/components/ui/intent-link";
import { useNow } from "@/components/calls/use-now";
import { followedFirst } from "@/components/watchlists/use-followed-first";
import { formatRelative } from "@/lib/format";
import type { EarningsRow } from "@/lib/schemas/calendar";
import type { CallListItem } from "@/lib/schemas/calls";

/** How far ahead "starting soon" looks: a report due within the hour, whose call follows it. */
const SOON_MS = 60 * 60_000;
/** A report released this long ago whose call has not started yet still counts as about to start. */
const RELEASED_MS = 60 * 60_000;

export interface SoonReport extends EarningsRow {
  symbol: string;
  startsAtMs: number;
}

/**
 * The reports whose calls are about to start: due within the hour, or out within the last hour with no call yet
 * (the market-data service announces no call times; a call follows its release). Followed companies first, then by
 * time. Empty until the page's clock runs (never in the server's HTML, which cannot know the reader's now).
 */
export function useStartingSoon(
  todayRows: readonly EarningsRow[],
  calls: ReadonlyMap<string, CallListItem>,
  followed: ReadonlySet<string>,
): { reports: SoonReport[]; now: number | null } {
  const now = useNow();
  // The minute is enough: recomputing on every tick of the shared clock would re-sort for nothing.
  const minute = now === null ? null : Math.floor(now / 60_000);
  const reports = useMemo(() => {
    if (minute === null) return [];
    const at = minute * 60_000;
    return followedFirst(
      todayRows
        .flatMap((r) => (r.startsAt ? [{ ...r, symbol: r.ticker, startsAtMs: Date.parse(r.startsAt) }] : []))
        .filter((r) => !calls.has(r.id) && r.startsAtMs - at <= SOON_MS && at - r.startsAtMs <= RELEASED_MS)
        .sort((a, b) => a.startsAtMs - b.startsAtMs),
      followed,
    );
  }, [todayRows, calls, followed, minute]);
  return { reports, now };
}

export function StartingSoon({
  reports,
  followed,
}: {
  reports: { reports: SoonReport[]; now: number | null };
  followed: ReadonlySet<string>;
}) {
  const { now } = reports;
  if (reports.reports.length === 0 || now === null)
    return <p className="text-2xs text-muted">No report is due within the hour.</p>;
  return (
    <ul
      className="flex flex-col gap-0.5 text-[13px]"
      data-testid="starting-soon"
      aria-label="Reports due within the hour"
    >
      {reports.reports.map((r) => {
        const isFollowed = followed.has(r.ticker.toUpperCase());
        return (
          <li key={r.id} className="flex min-w-0 items-baseline gap-2" data-ticker={r.ticker}>
            <span className="text-2xs text-muted w-24 shrink-0 tabular-nums">
              {r.startsAtMs <= now
                ? `out ${formatRelative(r.startsAtMs, now)}`
                : formatRelative(r.startsAtMs, now)}
            </span>
            <IntentLink
              href={`/companies/${encodeURIComponent(r.ticker)}`}
              className="text-accent font-mono font-semibold hover:underline"
            >
              {r.ticker}
            </IntentLink>
            <span className="text-muted min-w-0 truncate">{r.name}</span>
            {isFollowed ? (
              <span className="text-2xs text-muted shrink-0" title="You follow this company">
                ★
              </span>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
