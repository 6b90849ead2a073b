"use client";

import {
  CartesianGrid,
  ComposedChart,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Scatter,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { formatClock, formatSentiment } from "./call-format";
import type { SentimentPoint } from "./sentiment-series";

/**
 * Sentiment over the call: one dot per sentence and the rolling mean as a line, with the playhead. Pure: data in
 * through props, already downsampled by the caller; no animation, so live updates do not replay a transition.
 */
export function SentimentChart({
  points,
  playheadSeconds,
  height = 160,
}: {
  points: readonly SentimentPoint[];
  playheadSeconds: number | null;
  height?: number;
}) {
  return (
    <div className="text-muted" style={{ height }}>
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={points as SentimentPoint[]} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid vertical={false} stroke="currentColor" strokeOpacity={0.15} />
          <XAxis
            dataKey="t"
            type="number"
            domain={["dataMin", "dataMax"]}
            tickFormatter={(v: number) => formatClock(v)}
            tick={{ fontSize: 11, fill: "currentColor" }}
            stroke="currentColor"
            strokeOpacity={0.3}
            minTickGap={24}
          />
          <YAxis
            domain={[-1, 1]}
            ticks={[-1, -0.5, 0, 0.5, 1]}
            tick={{ fontSize: 11, fill: "currentColor" }}
            stroke="currentColor"
            strokeOpacity={0.3}
            width={36}
            tickFormatter={(v: number) =>
              v === 0 ? "0" : `${v < 0 ? "\u2212" : "+"}${Math.abs(v).toFixed(1)}`
            }
          />
          <ReferenceLine y={0} stroke="currentColor" strokeOpacity={0.4} />
          <Tooltip
            isAnimationActive={false}
            cursor={{ stroke: "currentColor", strokeOpacity: 0.3 }}
            contentStyle={{
              background: "var(--canvas)",
              border: "1px solid var(--line-strong)",
              fontSize: 12,
              color: "var(--fg)",
            }}
            labelFormatter={(v) => `At ${formatClock(Number(v))}`}
            formatter={(value, name) => [
              formatSentiment(Number(value)),
              name === "mean" ? "Rolling mean" : "Sentence",
            ]}
          />
          <Scatter
            dataKey="value"
            name="value"
            className="text-muted"
            fill="currentColor"
            fillOpacity={0.55}
            isAnimationActive={false}
            shape="circle"
            legendType="none"
          />
          <Line
            dataKey="mean"
            name="mean"
            type="monotone"
            className="text-accent"
            stroke="currentColor"
            strokeWidth={1.75}
            dot={false}
            isAnimationActive={false}
          />
          {playheadSeconds !== null ? (
            <ReferenceLine
              x={playheadSeconds}
              className="text-accent"
              stroke="currentColor"
              strokeDasharray="3 3"
            />
          ) : null}
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
