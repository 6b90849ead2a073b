"use client";

import {
  CartesianGrid,
  Legend,
  Line,
  LineChart as RLineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { downsample } from "./downsample";

export interface LineSeries {
  key: string;
  label: string;
  /** A CSS colour; theme variables work (`var(--accent)`). */
  color: string;
  dashed?: boolean;
}

/**
 * A pure time-series line chart: data in through props, formatting passed in, at most 2,000 points.
 * `x` is a label (date string) per point; gaps (null) are drawn as gaps, not as zero.
 */
export function LineChart<Row extends { x: string }>({
  data,
  series,
  formatY,
  formatX = (x) => x,
  height = 220,
  ariaLabel,
}: {
  data: readonly Row[];
  series: readonly LineSeries[];
  formatY: (value: number) => string;
  formatX?: (x: string) => string;
  height?: number;
  ariaLabel: string;
}) {
  const points = downsample(data);
  return (
    <figure role="img" aria-label={ariaLabel} className="m-0 w-full" style={{ height }}>
      <ResponsiveContainer width="100%" height="100%">
        <RLineChart data={points} margin={{ top: 8, right: 12, bottom: 0, left: 4 }}>
          <CartesianGrid stroke="var(--line)" strokeDasharray="2 4" vertical={false} />
          <XAxis
            dataKey="x"
            tickFormatter={formatX}
            tick={{ fill: "var(--muted)", fontSize: 11 }}
            stroke="var(--line)"
            minTickGap={24}
          />
          <YAxis
            tickFormatter={(v: number) => formatY(v)}
            tick={{ fill: "var(--muted)", fontSize: 11 }}
            stroke="var(--line)"
            width={64}
            domain={["auto", "auto"]}
          />
          <Tooltip
            formatter={(value) => (typeof value === "number" ? formatY(value) : String(value ?? "—"))}
            labelFormatter={(label) => formatX(String(label))}
            contentStyle={{
              background: "var(--canvas)",
              border: "1px solid var(--line-strong)",
              borderRadius: 4,
              fontSize: 12,
            }}
            labelStyle={{ color: "var(--fg)" }}
          />
          {series.length > 1 ? <Legend wrapperStyle={{ fontSize: 12 }} /> : null}
          {series.map((s) => (
            <Line
              key={s.key}
              type="monotone"
              dataKey={s.key}
              name={s.label}
              stroke={s.color}
              strokeWidth={1.75}
              strokeDasharray={s.dashed ? "4 3" : undefined}
              dot={points.length <= 24}
              connectNulls={false}
              isAnimationActive={false}
            />
          ))}
        </RLineChart>
      </ResponsiveContainer>
    </figure>
  );
}
