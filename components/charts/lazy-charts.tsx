"use client";

import dynamic from "next/dynamic";
import { useRef, type ComponentType, type ReactNode } from "react";
import { Skeleton } from "@/components/ui/skeleton";
import { useInView } from "@/components/ui/use-in-view";
import type { BarChart as BarChartImpl } from "./bar-chart";
import type { LineChart as LineChartImpl } from "./line-chart";

/*
 * The charts as the pages use them. Recharts (with its Redux/Immer/d3 dependencies, ≈ 107 kB gzip) is fetched
 * only when a chart renders, after the page is interactive, instead of in every chart page's first load
 * (docs/performance.md). Charts are drawn from client-side measurements anyway (ResponsiveContainer), so nothing
 * is lost by not server-rendering them. A chart is asked for only when its box nears the viewport: one below the
 * fold (on a phone, most of them) costs nothing until the reader scrolls to it, and the page's first seconds are
 * spent on what is in view. Until the code arrives, a skeleton fills the exact box the chart will occupy: the box
 * has the chart's height either way, so nothing below moves.
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

/** What a lazy chart shows while its code loads: fills the ChartBox around it. */
export function ChartSkeleton() {
  return <Skeleton className="absolute inset-0" />;
}

const LazyLineChart = dynamic(() => import("./line-chart").then((m) => m.LineChart), {
  ssr: false,
  loading: ChartSkeleton,
}) as ComponentType<Parameters<typeof LineChartImpl>[0]>;

const LazyBarChart = dynamic(() => import("./bar-chart").then((m) => m.BarChart), {
  ssr: false,
  loading: ChartSkeleton,
});

export function LineChart<Row extends { x: string }>(
  props: Omit<Parameters<typeof LineChartImpl<Row>>[0], "height"> & { height?: number },
) {
  const height = props.height ?? LINE_CHART_HEIGHT;
  return (
    <ChartBox height={height}>
      <LazyLineChart {...(props as Parameters<typeof LineChartImpl>[0])} height={height} />
    </ChartBox>
  );
}

export function BarChart(props: Parameters<typeof BarChartImpl>[0]) {
  const height = props.height ?? BAR_CHART_HEIGHT;
  return (
    <ChartBox height={height}>
      <LazyBarChart {...props} height={height} />
    </ChartBox>
  );
}
