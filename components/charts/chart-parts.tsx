"use client";

/** What the line and bar charts share: axis styling and the tooltip box. */

export const Y_AXIS_WIDTH = 64;
export const X_AXIS_HEIGHT = 30;
export const AXIS_STROKE = "var(--line)";
export const GRID_DASH = "2 4";
export const TICK = { fill: "var(--muted)", fontSize: 11 } as const;

const TOOLTIP_WIDTH_GUESS = 170;

/** The horizontal grid lines at the value ticks and the value axis on the left, with its labels. */
export function GridAndValueAxis({
  ticks,
  y,
  left,
  right,
  top,
  bottom,
  format,
}: {
  ticks: number[];
  y: (value: number) => number;
  left: number;
  right: number;
  top: number;
  bottom: number;
  format: (value: number) => string;
}) {
  return (
    <>
      <g>
        {ticks.map((t) => (
          <line
            key={t}
            x1={left}
            x2={right}
            y1={y(t)}
            y2={y(t)}
            stroke="var(--line)"
            strokeDasharray={GRID_DASH}
          />
        ))}
      </g>
      <g>
        <line x1={left} x2={left} y1={top} y2={bottom} stroke={AXIS_STROKE} />
        {ticks.map((t) => (
          <g key={t}>
            <line x1={left - 6} x2={left} y1={y(t)} y2={y(t)} stroke={AXIS_STROKE} />
            <text x={left - 8} y={y(t)} dy="0.355em" textAnchor="end" {...TICK}>
              {format(t)}
            </text>
          </g>
        ))}
      </g>
    </>
  );
}

/**
 * The category axis along the bottom: its line, a tick and a label per category shown. `anchor` places a label
 * (text-anchor and x); by default centred on its tick.
 */
export function CategoryAxis({
  ticks,
  left,
  right,
  bottom,
}: {
  ticks: readonly {
    key: string | number;
    x: number;
    label: string;
    anchor?: { x: number; textAnchor: "start" | "middle" | "end" };
  }[];
  left: number;
  right: number;
  bottom: number;
}) {
  return (
    <g>
      <line x1={left} x2={right} y1={bottom} y2={bottom} stroke={AXIS_STROKE} />
      {ticks.map((t) => (
        <g key={t.key}>
          <line x1={t.x} x2={t.x} y1={bottom} y2={bottom + 6} stroke={AXIS_STROKE} />
          <text y={bottom + 8} dy="0.71em" {...(t.anchor ?? { x: t.x, textAnchor: "middle" })} {...TICK}>
            {t.label}
          </text>
        </g>
      ))}
    </g>
  );
}

/**
 * The values under the pointer: a box beside the cursor at `x` (to its right, or to its left near the right edge),
 * the category on top, then one line per series in its colour. (The chart is one image to assistive technology,
 * described by its label; the figures themselves are in the tables beside the charts.)
 */
export function ChartTooltip({
  x,
  width,
  top,
  label,
  items,
}: {
  x: number;
  width: number;
  top: number;
  label: string;
  items: readonly { name: string; value: string; color?: string }[];
}) {
  const flip = x + 10 + TOOLTIP_WIDTH_GUESS > width;
  return (
    <div
      className="pointer-events-none absolute z-10 rounded border px-2.5 py-2 text-xs whitespace-nowrap"
      style={{
        top: top + 4,
        left: flip ? undefined : x + 10,
        right: flip ? Math.max(0, width - x + 10) : undefined,
        background: "var(--canvas)",
        borderColor: "var(--line-strong)",
      }}
    >
      <p className="text-fg mb-1">{label}</p>
      <ul>
        {items.map((item) => (
          <li key={item.name} style={{ color: item.color ?? "var(--fg)" }} className="py-0.5">
            {item.name} : {item.value}
          </li>
        ))}
      </ul>
    </div>
  );
}
