"use client";

import {
  Bar,
  BarChart as RBarChart,
  CartesianGrid,
  Cell,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";

export interface BarDatum {
  label: string;
  value: number | null;
  /** A CSS colour for this bar; defaults to the chart's colour. */
  color?: string;
}

/** A pure categorical bar chart (one value per category); null values leave an empty slot. */
export function BarChart({
  data,
  formatValue,
  color = "var(--accent)",
  height = 240,
  ariaLabel,
}: {
  data: readonly BarDatum[];
  formatValue: (value: number) => string;
  color?: string;
  height?: number;
  ariaLabel: string;
}) {
  return (
    <figure role="img" aria-label={ariaLabel} className="m-0 w-full" style={{ height }}>
      <ResponsiveContainer width="100%" height="100%">
        <RBarChart data={[...data]} margin={{ top: 8, right: 12, bottom: 0, left: 4 }}>
          <CartesianGrid stroke="var(--line)" strokeDasharray="2 4" vertical={false} />
          <XAxis
            dataKey="label"
            tick={{ fill: "var(--muted)", fontSize: 11 }}
            stroke="var(--line)"
            interval={0}
          />
          <YAxis
            tickFormatter={(v: number) => formatValue(v)}
            tick={{ fill: "var(--muted)", fontSize: 11 }}
            stroke="var(--line)"
            width={64}
          />
          <Tooltip
            formatter={(value) => (typeof value === "number" ? formatValue(value) : "—")}
            cursor={{ fill: "var(--surface-2)" }}
            contentStyle={{
              background: "var(--canvas)",
              border: "1px solid var(--line-strong)",
              borderRadius: 4,
              fontSize: 12,
            }}
            labelStyle={{ color: "var(--fg)" }}
          />
          <Bar dataKey="value" isAnimationActive={false} maxBarSize={56}>
            {data.map((d) => (
              <Cell key={d.label} fill={d.color ?? color} />
            ))}
          </Bar>
        </RBarChart>
      </ResponsiveContainer>
    </figure>
  );
}
