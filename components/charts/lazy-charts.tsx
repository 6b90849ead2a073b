"use client";

import { lazy, Suspense } from "react";
import type { BarChart as BarChartImpl } from "./bar-chart";
import { ChartBox, ChartSkeleton } from "./chart-box";
import type { LineChart as LineChartImpl } from "./line-chart";

export { ChartBox, ChartSkeleton } from "./chart-box";

/*
 * The charts as the pages use them. A chart is drawn only once its box nears the viewport: one below the fold (on
 * a phone, most of them) costs nothing until the reader scrolls to it, and the page's first seconds are spent on
 * what is in view. Charts are drawn from a client-side measurement of their width, so nothing is lost by not
 * server-rendering them; until then a skeleton fills the exact box the chart will occupy, so nothing below moves.
 *
 * The charts themselves are small SVG components (line-chart.tsx, bar-chart.tsx; Recharts was ≈ 107 kB gzip), and
 * they are fetched when the first chart nears the viewport rather than with the page: a few kB, but the pages that
 * draw charts are the ones closest to the first-load budget (docs/performance.md, First-load JS).
 */

export const LINE_CHART_HEIGHT = 220;
export const BAR_CHART_HEIGHT = 240;

const LazyLineChart = lazy(() => import("./line-chart").then((m) => ({ default: m.LineChart })));
const LazyBarChart = lazy(() => import("./bar-chart").then((m) => ({ default: m.BarChart })));

export function LineChart<Row extends { x: string }>(
  props: Omit<Parameters<typeof LineChartImpl<Row>>[0], "height"> & { height?: number },
) {
  const height = props.height ?? LINE_CHART_HEIGHT;
  const Chart = LazyLineChart as unknown as typeof LineChartImpl<Row>;
  return (
    <ChartBox height={height}>
      <Suspense fallback={<ChartSkeleton />}>
        <Chart {...props} height={height} />
      </Suspense>
    </ChartBox>
  );
}

export function BarChart(props: Parameters<typeof BarChartImpl>[0]) {
  const height = props.height ?? BAR_CHART_HEIGHT;
  return (
    <ChartBox height={height}>
      <Suspense fallback={<ChartSkeleton />}>
        <LazyBarChart {...props} height={height} />
      </Suspense>
    </ChartBox>
  );
}
