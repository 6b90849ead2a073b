"use client";

import { Surprise } from "@/components/calendar/figures";
import { Badge } from "@/components/ui/badge";
import { Section } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/panel-state";
import { Skeleton } from "@/components/ui/skeleton";
import { formatClock } from "../call-format";
import { isFact } from "@/lib/insights/fact";
import type { Figure } from "@/lib/schemas/insights";
import {
  consensusPhrase,
  distinctFigures,
  figureLabel,
  formatFigure,
  formatFigureValue,
  PERIOD_LABELS,
} from "@/lib/figure-format";

/**
 * Figures stated in the call, each against the calendar's consensus where it has one. What the extractor is unsure
 * of stays apart, greyed and marked unverified, never shown as fact.
 */
export function FiguresPanel({
  figures,
  isLive,
  isContextLoading,
  onSeek,
}: {
  figures: readonly Figure[];
  isLive: boolean;
  isContextLoading: boolean;
  onSeek: (sequence: number) => void;
}) {
  const facts = distinctFigures(figures.filter(isFact));
  const unsure = distinctFigures(figures.filter((f) => !isFact(f)));
  return (
    <Section
      title="Figures"
      id="figures"
      actions={
        isContextLoading ? (
          <span className="text-2xs text-muted">loading consensus…</span>
        ) : (
          <span className="text-2xs text-muted">vs consensus</span>
        )
      }
    >
      {facts.length === 0 ? (
        isContextLoading && !isLive ? (
          <div className="flex flex-col gap-1.5" aria-busy>
            <Skeleton className="h-7 w-full" />
            <Skeleton className="h-7 w-full" />
          </div>
        ) : (
          <EmptyState
            className="py-4"
            title="No figures stated yet"
            hint={
              isLive
                ? "Revenue, EPS, margins and guidance appear here the moment they are spoken."
                : "No sentence of this call states a figure the extractor can attribute with confidence."
            }
          />
        )
      ) : (
        <ul className="flex flex-col" data-testid="figures-list">
          {facts.map(({ figure, times }) => (
            <FigureRow key={figure.id} figure={figure} times={times} onSeek={onSeek} />
          ))}
        </ul>
      )}
      {unsure.length > 0 ? (
        <details className="mt-1">
          <summary className="text-2xs text-muted cursor-pointer">
            {unsure.length} unverified {unsure.length === 1 ? "figure" : "figures"}
          </summary>
          <ul className="flex flex-col opacity-70" data-testid="figures-unverified">
            {unsure.map(({ figure, times }) => (
              <FigureRow key={figure.id} figure={figure} times={times} onSeek={onSeek} isUnverified />
            ))}
          </ul>
        </details>
      ) : null}
    </Section>
  );
}

function FigureRow({
  figure: f,
  times,
  onSeek,
  isUnverified = false,
}: {
  figure: Figure;
  times: number;
  onSeek: (sequence: number) => void;
  isUnverified?: boolean;
}) {
  const phrase = consensusPhrase(f);
  const kindLabel = f.kind === "change" ? (f.unit === "bps" ? " change" : " growth") : "";
  return (
    <li>
      <button
        type="button"
        data-testid="figure"
        data-metric={f.metric}
        data-sequence={f.sequence}
        data-seek-sequence={f.sequence}
        data-guidance={f.isGuidance || undefined}
        className="hover:bg-surface grid w-full grid-cols-[1fr_auto] gap-x-3 rounded px-1.5 py-1 text-left text-[13px]"
        title={`“${f.quote}” at ${formatClock(f.startMs / 1000)}${times > 1 ? ` (said ${times} times)` : ""}: go to this moment`}
        onClick={() => onSeek(f.sequence)}
      >
        <span className="flex min-w-0 flex-wrap items-center gap-1.5">
          <span className="font-medium">
            {figureLabel(f)}
            {kindLabel}
          </span>
          {f.isGuidance ? <Badge tone="accent">guidance</Badge> : null}
          {f.period !== "quarter" ? (
            <span className="text-2xs text-muted">{PERIOD_LABELS[f.period]}</span>
          ) : null}
          {f.basis ? (
            <span className="text-2xs text-muted">{f.basis === "gaap" ? "GAAP" : "adj."}</span>
          ) : null}
          {isUnverified ? <Badge tone="warn">unverified</Badge> : null}
        </span>
        <span
          className={cn(
            "text-right font-semibold tabular-nums",
            f.surprisePercent !== undefined && f.surprisePercent > 0 && "text-pos",
            f.surprisePercent !== undefined && f.surprisePercent < 0 && "text-neg",
          )}
        >
          {f.isApproximate ? "≈ " : ""}
          {formatFigure(f)}
        </span>
        {f.consensus !== undefined ? (
          <span className="text-2xs text-muted col-span-2 flex flex-wrap items-center justify-between gap-x-2">
            <span data-testid="figure-consensus">
              {phrase} · consensus {formatFigureValue(f.consensus, f.unit)}
            </span>
            <span className="tabular-nums" data-testid="figure-surprise">
              <Surprise percent={f.surprisePercent ?? null} />
            </span>
          </span>
        ) : null}
      </button>
    </li>
  );
}
