"use client";

import { useRef, type ReactNode } from "react";
import { Skeleton } from "@/components/ui/skeleton";
import { useInView } from "@/components/ui/use-in-view";
import { BarChart as BarChartImpl } from "./bar-chart";
import { LineChart as LineChartImpl } from "./line-chart";

/*
 * The charts as the pages use them. A chart is drawn only once its box nears the viewport: one below the fold (on
 * a phone, most of them) costs nothing until the reader scrolls to it, and the page's first seconds are spent on
 * what is in view. Charts are drawn from a client-side measurement of their width, so nothing is lost by not
 * server-rendering them; until then a skeleton fills the exact box the chart will occupy, so nothing below moves.
 *
 * The charts themselves are small SVG components (line-chart.tsx, bar-chart.tsx): they come with the page's code
 * rather than as a lazily fetched chunk, since they are a few kB where Recharts was ≈ 107 kB gzip.
 */

export const LINE_CHART_HEIGHT = 220;
export const BAR_CHART_HEIGHT = 240;

/** The chart's box, at its final height, holding a skeleton until it nears the viewport and the chart arrives. */
export function ChartBox({ height, children }: { height: number; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const inView = useInView(ref);
  return (
    <div ref={ref} className="relative w-full" style={{ height }}>
      {inView ? children : <ChartSkeleton />}
    </div>
  );
}

/** What a chart shows until it is drawn: fills the ChartBox around it. */
export function ChartSkeleton() {
  return <Skeleton className="absolute inset-0" />;
}

export function LineChart<Row extends { x: string }>(
  props: Omit<Parameters<typeof LineChartImpl<Row>>[0], "height"> & { height?: number },
) {
  const height = props.height ?? LINE_CHART_HEIGHT;
  return (
    <ChartBox height={height}>
      <LineChartImpl {...props} height={height} />
    </ChartBox>
  );
}

export function BarChart(props: Parameters<typeof BarChartImpl>[0]) {
  const height = props.height ?? BAR_CHART_HEIGHT;
  return (
    <ChartBox height={height}>
      <BarChartImpl {...props} height={height} />
    </ChartBox>
  );
}
