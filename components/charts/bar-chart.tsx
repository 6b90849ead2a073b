"use client";

import { useChartCursor } from "./use-chart-cursor";
import { linearScale, niceTicks } from "./chart-kit";
import { CategoryAxis, ChartTooltip, GridAndValueAxis, X_AXIS_HEIGHT, Y_AXIS_WIDTH } from "./chart-parts";
import { useWidth } from "./use-width";

export interface BarDatum {
  label: string;
  value: number | null;
  /** A CSS colour for this bar; defaults to the chart's colour. */
  color?: string;
}

const MARGIN = { top: 8, right: 12, bottom: 0, left: 4 };
const MAX_BAR = 56;

/**
 * A pure categorical bar chart (one value per category); null values leave an empty slot. Plain SVG in one render,
 * like the line chart (see there why): zero always on the axis, every category labelled, a tooltip on hover and on
 * the arrow keys.
 */
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
  const [ref, width] = useWidth<HTMLElement>();
  const left = MARGIN.left + Y_AXIS_WIDTH;
  const right = Math.max(left + 1, width - MARGIN.right);
  const top = MARGIN.top;
  const bottom = Math.max(top + 1, height - MARGIN.bottom - X_AXIS_HEIGHT);

  const values = data.map((d) => d.value).filter((v): v is number => v !== null && Number.isFinite(v));
  const ticks = niceTicks(Math.min(0, ...values), Math.max(0, ...values));
  const y = linearScale(ticks[0]!, ticks[ticks.length - 1]!, bottom, top);
  const band = data.length > 0 ? (right - left) / data.length : 0;
  const barWidth = Math.min(MAX_BAR, band * 0.8);
  const center = (i: number) => left + band * (i + 0.5);

  const { active, handlers } = useChartCursor(data.length, (clientX, box) => {
    const px = clientX - box.left;
    const i = Math.floor((px - left) / (band || 1));
    return px >= left && px <= right && i >= 0 && i < data.length ? i : null;
  });

  const activeDatum = active === null ? undefined : data[active];
  return (
    <figure ref={ref} role="img" aria-label={ariaLabel} className="relative m-0 w-full" style={{ height }}>
      {width > 0 ? (
        <svg width={width} height={height} className="block touch-pan-y outline-none" {...handlers}>
          {activeDatum ? (
            <rect
              x={left + band * active!}
              y={top}
              width={band}
              height={bottom - top}
              fill="var(--surface-2)"
            />
          ) : null}
          <GridAndValueAxis
            ticks={ticks}
            y={y}
            left={left}
            right={right}
            top={top}
            bottom={bottom}
            format={formatValue}
          />
          <CategoryAxis
            ticks={data.map((d, i) => ({ key: d.label, x: center(i), label: d.label }))}
            left={left}
            right={right}
            bottom={bottom}
          />
          <g>
            {data.map((d, i) =>
              d.value === null || !Number.isFinite(d.value) ? null : (
                <rect
                  key={d.label}
                  x={center(i) - barWidth / 2}
                  y={Math.min(y(d.value), y(0))}
                  width={barWidth}
                  height={Math.abs(y(0) - y(d.value))}
                  fill={d.color ?? color}
                />
              ),
            )}
          </g>
        </svg>
      ) : null}
      {activeDatum ? (
        <ChartTooltip
          x={center(active!)}
          width={width}
          top={top}
          label={activeDatum.label}
          items={[
            {
              name: "value",
              value: activeDatum.value === null ? "—" : formatValue(activeDatum.value),
              color: activeDatum.color ?? color,
            },
          ]}
        />
      ) : null}
    </figure>
  );
}
