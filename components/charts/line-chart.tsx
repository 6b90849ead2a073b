"use client";

import { useChartCursor } from "./use-chart-cursor";
import { labelIndexes, labelWidth, linearScale, monotonePath, niceTicks } from "./chart-kit";
import { CategoryAxis, ChartTooltip, GridAndValueAxis, X_AXIS_HEIGHT, Y_AXIS_WIDTH } from "./chart-parts";
import { downsample } from "./downsample";
import { useWidth } from "./use-width";

export interface LineSeries {
  key: string;
  label: string;
  /** A CSS colour; theme variables work (`var(--accent)`). */
  color: string;
  dashed?: boolean;
}

const MARGIN = { top: 8, right: 12, bottom: 0, left: 4 };

/** Centred under its point, unless that would cut the label at the chart's right edge (the newest label). */
function labelPlacement(x: number, label: string, width: number) {
  const half = labelWidth(label) / 2;
  return x + half > width
    ? { x: width - 1, textAnchor: "end" as const }
    : { x, textAnchor: "middle" as const };
}
const LEGEND_HEIGHT = 24;

/**
 * A pure time-series line chart: data in through props, formatting passed in, at most 2,000 points.
 * `x` is a label (date string) per point; gaps (null) are drawn as gaps, not as zero.
 *
 * Drawn as plain SVG in one render (it replaced Recharts here: its ≈ 107 kB of code and a render through a chain
 * of synchronous store updates cost a phone about a second of blocked main thread per chart on the company page).
 * The look is the one analysts knew: dashed horizontal grid, round y ticks, x labels thinned so none overlap,
 * monotone curves, dots on short series, a legend for two or more series, a tooltip following the pointer (and
 * the arrow keys when the chart has focus).
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
  const [ref, width] = useWidth<HTMLElement>();
  const points = downsample(data);
  const value = (row: Row, key: string): number | null => {
    const v = (row as Record<string, unknown>)[key];
    return typeof v === "number" && Number.isFinite(v) ? v : null;
  };

  const hasLegend = series.length > 1;
  const left = MARGIN.left + Y_AXIS_WIDTH;
  const right = Math.max(left + 1, width - MARGIN.right);
  const top = MARGIN.top;
  const bottom = Math.max(top + 1, height - MARGIN.bottom - X_AXIS_HEIGHT - (hasLegend ? LEGEND_HEIGHT : 0));

  const values = points.flatMap((row) => series.map((s) => value(row, s.key))).filter((v) => v !== null);
  const ticks = values.length > 0 ? niceTicks(Math.min(...values), Math.max(...values)) : [0, 1];
  const y = linearScale(ticks[0]!, ticks[ticks.length - 1]!, bottom, top);
  const x = points.length > 1 ? linearScale(0, points.length - 1, left, right) : () => (left + right) / 2;
  const xLabels = points.map((row) => formatX(row.x));
  const shownLabels = width > 0 ? labelIndexes(xLabels, right - left) : [];

  const indexAt = (clientX: number, box: DOMRect) => {
    if (points.length === 0) return null;
    const px = clientX - box.left;
    if (px < left - 4 || px > right + 4) return null;
    const i = points.length > 1 ? Math.round(((px - left) / (right - left)) * (points.length - 1)) : 0;
    return Math.min(points.length - 1, Math.max(0, i));
  };
  const { active, handlers } = useChartCursor(points.length, indexAt, { startAtEnd: true });

  const activeRow = active === null ? undefined : points[active];
  return (
    <figure ref={ref} role="img" aria-label={ariaLabel} className="relative m-0 w-full" style={{ height }}>
      {width > 0 ? (
        <svg
          width={width}
          height={height - (hasLegend ? LEGEND_HEIGHT : 0)}
          className="block touch-pan-y outline-none"
          {...handlers}
        >
          <GridAndValueAxis
            ticks={ticks}
            y={y}
            left={left}
            right={right}
            top={top}
            bottom={bottom}
            format={formatY}
          />
          <CategoryAxis
            ticks={shownLabels.map((i) => ({
              key: i,
              x: x(i),
              label: xLabels[i]!,
              anchor: labelPlacement(x(i), xLabels[i]!, width),
            }))}
            left={left}
            right={right}
            bottom={bottom}
          />
          {activeRow ? (
            <line x1={x(active!)} x2={x(active!)} y1={top} y2={bottom} stroke="var(--line-strong)" />
          ) : null}
          {series.map((s) => (
            <g key={s.key}>
              <path
                d={monotonePath(
                  points.map((row, i) => {
                    const v = value(row, s.key);
                    return v === null ? null : { x: x(i), y: y(v) };
                  }),
                )}
                fill="none"
                stroke={s.color}
                strokeWidth={1.75}
                strokeDasharray={s.dashed ? "4 3" : undefined}
              />
              {points.length <= 24
                ? points.map((row, i) => {
                    const v = value(row, s.key);
                    return v === null ? null : (
                      <circle
                        key={i}
                        cx={x(i)}
                        cy={y(v)}
                        r={3}
                        fill="var(--canvas)"
                        stroke={s.color}
                        strokeWidth={1.75}
                      />
                    );
                  })
                : null}
              {activeRow && value(activeRow, s.key) !== null ? (
                <circle
                  cx={x(active!)}
                  cy={y(value(activeRow, s.key)!)}
                  r={4}
                  fill={s.color}
                  stroke="var(--canvas)"
                  strokeWidth={2}
                />
              ) : null}
            </g>
          ))}
        </svg>
      ) : null}
      {hasLegend ? (
        <ul className="flex h-6 items-center justify-center gap-3 text-xs" aria-hidden>
          {series.map((s) => (
            <li key={s.key} className="flex items-center gap-1" style={{ color: s.color }}>
              <svg width={14} height={14} viewBox="0 0 32 32" aria-hidden>
                <path
                  d="M0,16h32"
                  stroke={s.color}
                  strokeWidth={4}
                  strokeDasharray={s.dashed ? "8 6" : undefined}
                />
                <circle cx={16} cy={16} r={5.5} fill="var(--canvas)" stroke={s.color} strokeWidth={4} />
              </svg>
              {s.label}
            </li>
          ))}
        </ul>
      ) : null}
      {activeRow ? (
        <ChartTooltip
          x={x(active!)}
          width={width}
          top={top}
          label={formatX(activeRow.x)}
          items={series.map((s) => {
            const v = value(activeRow, s.key);
            return { name: s.label, value: v === null ? "—" : formatY(v), color: s.color };
          })}
        />
      ) : null}
    </figure>
  );
}
