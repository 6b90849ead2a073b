"use client";

import { Section } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/panel-state";
import { cn } from "@/components/ui/cn";
import type { Call, Segment } from "@/lib/schemas/calls";
import { formatSentiment, meanSentiment, sentimentSourceLabel, sentimentTone } from "./call-format";
import { SentimentSourceTag } from "./sentiment-source-tag";
import { ChartBox, ChartSkeleton } from "@/components/charts/chart-box";
import { downsample, sentimentSeries } from "./sentiment-series";
import { lazy, Suspense, useMemo } from "react";

const SENTIMENT_CHART_HEIGHT = 160;

/**
 * The chart's code loads after the page, when its box nears the viewport (ChartBox draws nothing before, on the
 * server neither); the box keeps its height meanwhile. React's lazy, not next/dynamic, whose runtime alone is 2.5 kB
 * gzip of the call room's first load (docs/performance.md, First-load JS).
 */
const SentimentChart = lazy(() => import("./sentiment-chart").then((m) => ({ default: m.SentimentChart })));

export function SentimentPanel({
  segments,
  status,
  playheadSeconds,
}: {
  segments: readonly Segment[];
  status: Call["status"];
  playheadSeconds: number | null;
}) {
  const points = useMemo(() => downsample(sentimentSeries(segments)), [segments]);
  const mean = useMemo(() => meanSentiment(segments), [segments]);
  const tone = sentimentTone(mean);
  const source = useMemo(() => sentimentSourceLabel(segments), [segments]);
  return (
    <Section
      title="Sentiment"
      id="sentiment"
      actions={
        <span className="text-2xs text-muted flex items-baseline gap-2">
          {source ? <SentimentSourceTag source={source} /> : null}
          <span>
            Mean{" "}
            <span
              className={cn(
                "text-[13px] font-semibold tabular-nums",
                tone === "pos" && "text-pos",
                tone === "neg" && "text-neg",
              )}
              data-testid="sentiment-mean"
            >
              {mean !== null && mean >= 0.1 ? "▲ " : mean !== null && mean <= -0.1 ? "▼ " : ""}
              {formatSentiment(mean)}
            </span>
          </span>
        </span>
      }
    >
      {points.length > 0 ? (
        <div data-testid="sentiment-chart" data-points={points.length} data-source={source ?? undefined}>
          <ChartBox height={SENTIMENT_CHART_HEIGHT}>
            <Suspense fallback={<ChartSkeleton />}>
              <SentimentChart
                points={points}
                playheadSeconds={playheadSeconds}
                height={SENTIMENT_CHART_HEIGHT}
              />
            </Suspense>
          </ChartBox>
        </div>
      ) : (
        <EmptyState
          className="py-6"
          title="No sentiment yet"
          hint={
            status === "live"
              ? "Each sentence is scored as it is spoken; the first points appear with the first sentences."
              : "No sentence of this call carries a score."
          }
        />
      )}
    </Section>
  );
}
