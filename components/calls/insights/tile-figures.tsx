"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { cn } from "@/components/ui/cn";
import { formatPercent } from "@/lib/format";
import { isFact } from "@/lib/insights/fact";
import { insightsQueries } from "@/lib/queries/insights";
import type { Segment } from "@/lib/schemas/calls";
import type { Figure } from "@/lib/schemas/insights";
import { formatFigure } from "@/lib/figure-format";
import { useInsightsEngine } from "./use-insights-engine";

/** The headline figures a tile has room for: the quarter's revenue and EPS, then revenue and EPS guidance. */
export function headlineFigures(figures: readonly Figure[]): { label: string; figure: Figure }[] {
  const latest = (pick: (f: Figure) => boolean) => figures.filter((f) => isFact(f) && pick(f)).at(-1);
  // The company's own figures only: a segment's revenue is never the headline (nor compared with consensus).
  const level = (f: Figure) => f.kind === "level" && f.segment === null;
  const slots: [string, Figure | undefined][] = [
    ["Rev", latest((f) => level(f) && f.metric === "revenue" && !f.isGuidance && f.period === "quarter")],
    ["EPS", latest((f) => level(f) && f.metric === "eps" && !f.isGuidance && f.period === "quarter")],
    [
      "Guide rev",
      latest((f) => level(f) && f.metric === "revenue" && f.isGuidance && f.period === "next_quarter"),
    ],
    [
      "Guide EPS",
      latest((f) => level(f) && f.metric === "eps" && f.isGuidance && f.period === "next_quarter"),
    ],
  ];
  return slots.flatMap(([label, figure]) => (figure ? [{ label, figure }] : []));
}

/** A live-board tile's one line of figures, each with its surprise against consensus. */
export function TileFigures({
  callId,
  segments,
  isLive,
}: {
  callId: string;
  segments: readonly Segment[];
  isLive: boolean;
}) {
  const context = useQuery({ ...insightsQueries.detail(callId), enabled: segments.length > 0 }).data?.data
    .context;
  const engine = useInsightsEngine(context ?? null);
  const figures = useMemo(
    () => engine?.compute({ sentences: segments, isComplete: !isLive }).figures ?? [],
    [engine, segments, isLive],
  );
  const headline = headlineFigures(figures);
  if (headline.length === 0) return null;
  return (
    <p
      className="text-2xs flex min-w-0 flex-wrap gap-x-2.5 overflow-hidden whitespace-nowrap tabular-nums"
      data-testid="live-tile-figures"
    >
      {headline.map(({ label, figure: f }) => (
        <span key={label} className="max-h-4">
          <span className="text-muted">{label} </span>
          <span className="font-semibold">{formatFigure(f)}</span>
          {f.surprisePercent !== undefined ? (
            <span
              className={cn(
                "ml-0.5",
                f.surprisePercent > 0 && "text-pos",
                f.surprisePercent < 0 && "text-neg",
              )}
            >
              {" "}
              <span aria-hidden>{f.surprisePercent > 0 ? "▲" : f.surprisePercent < 0 ? "▼" : "■"}</span>
              <span className="sr-only">
                {f.isGuidance ? "against consensus" : f.surprisePercent >= 0 ? "beat" : "miss"}{" "}
              </span>
              {formatPercent(f.surprisePercent)}
            </span>
          ) : null}
        </span>
      ))}
    </p>
  );
}
