"use client";

import { IntentLink } from "@/components/ui/intent-link";
import { cn } from "@/components/ui/cn";
import { FollowButton } from "@/components/watchlists/follow-button";
import { formatDate, formatEps, formatMoney } from "@/lib/format";
import type { EarningsRow } from "@/lib/schemas/calendar";
import type { CallListItem } from "@/lib/schemas/calls";
import { CallLink } from "./call-link";
import { Actual, Surprise } from "./figures";
import { ReportTime } from "./report-time";

/**
 * The earnings calendar on a phone: one card per report instead of a table 1,500 px wide, so the ticker, the time,
 * the EPS estimate and actual (and the revenue's) and the way into the call are on screen without scrolling
 * sideways. Cards the screen has not reached skip layout (`content-visibility`).
 */
export function EarningsCards({
  rows,
  calls,
  timeZone,
  activeIndex = -1,
  withDate = true,
  testId = "earnings-cards",
}: {
  rows: readonly EarningsRow[];
  calls: ReadonlyMap<string, CallListItem>;
  timeZone: string;
  activeIndex?: number;
  withDate?: boolean;
  testId?: string;
}) {
  return (
    <ol className="divide-line border-line divide-y rounded border" data-testid={testId}>
      {rows.map((r, i) => (
        <li
          key={r.id}
          data-testid="earnings-card"
          data-ticker={r.ticker}
          className={cn(
            "flex flex-col gap-0.5 px-2.5 py-1.5 text-[13px] [contain-intrinsic-size:auto_64px] [content-visibility:auto]",
            i === activeIndex && "bg-accent-soft",
          )}
        >
          <div className="flex min-w-0 items-center gap-1.5">
            <FollowButton symbol={r.ticker} compact />
            <IntentLink
              href={`/companies/${encodeURIComponent(r.ticker)}`}
              className="text-accent shrink-0 font-mono font-semibold hover:underline"
            >
              {r.ticker}
            </IntentLink>
            <span className="text-muted min-w-0 flex-1 truncate" title={r.name}>
              {r.name}
            </span>
            <CallLink call={calls.get(r.id)} symbol={r.ticker} className="text-2xs shrink-0" />
          </div>
          <div className="text-2xs text-muted flex flex-wrap items-center gap-x-2">
            {withDate ? <span>{formatDate(r.date, { weekday: true, year: false })}</span> : null}
            <ReportTime date={r.date} time={r.time} timeZone={timeZone} />
            {r.period ? (
              <span>
                {r.period}
                {r.periodYear ? ` ${r.periodYear}` : ""}
              </span>
            ) : null}
          </div>
          <dl className="grid grid-cols-[auto_1fr] gap-x-2 tabular-nums">
            <dt className="text-2xs text-muted self-center">EPS</dt>
            <dd className="flex flex-wrap items-baseline gap-x-1.5">
              <span>
                <span className="text-muted text-2xs">est. </span>
                {formatEps(r.epsEst)}
              </span>
              <span aria-hidden className="text-muted">
                →
              </span>
              <span>
                <span className="sr-only">actual </span>
                <Actual text={formatEps(r.eps)} surprise={r.epsSurprisePercent} />
              </span>
              {r.epsSurprisePercent !== null ? <Surprise percent={r.epsSurprisePercent} /> : null}
            </dd>
            <dt className="text-2xs text-muted self-center">Rev.</dt>
            <dd className="flex flex-wrap items-baseline gap-x-1.5">
              <span>
                <span className="text-muted text-2xs">est. </span>
                {formatMoney(r.revenueEst, r.currency ?? "USD")}
              </span>
              <span aria-hidden className="text-muted">
                →
              </span>
              <span>
                <span className="sr-only">actual </span>
                <Actual
                  text={formatMoney(r.revenue, r.currency ?? "USD")}
                  surprise={r.revenueSurprisePercent}
                />
              </span>
              {r.revenueSurprisePercent !== null ? <Surprise percent={r.revenueSurprisePercent} /> : null}
            </dd>
          </dl>
        </li>
      ))}
    </ol>
  );
}
