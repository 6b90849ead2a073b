/*
 * The arithmetic of the dashboard's SVG charts: value scales with round ticks, which category labels fit, and the
 * smooth line through a series. Pure functions, so the charts stay small components and this stays testable.
 */

/** Round tick values covering [min, max], about `count` of them (1, 2, 2.5 or 5 times a power of ten apart). */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [0];
  if (min === max) {
    // A flat series still gets an axis: a band around its value (or around zero).
    const pad = min === 0 ? 1 : Math.abs(min) * 0.1;
    return niceTicks(min - pad, max + pad, count);
  }
  const rough = (max - min) / Math.max(1, count - 1);
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * power >= rough) ?? 10) * power;
  const first = Math.floor(min / step) * step;
  const ticks: number[] = [];
  // Until a tick reaches the maximum: the top tick is the axis's end, so it must not fall short of the data.
  for (let v = first; ticks.length < 2 || (ticks.at(-1) ?? 0) < max - step * 1e-9; v += step) {
    // Rounding keeps 0.30000000000000004 from reaching a label.
    ticks.push(Number(v.toPrecision(12)));
  }
  return ticks;
}

/** Maps [d0, d1] onto [r0, r1] linearly. */
export function linearScale(d0: number, d1: number, r0: number, r1: number): (v: number) => number {
  const span = d1 - d0 || 1;
  return (v) => r0 + ((v - d0) / span) * (r1 - r0);
}

/** About how wide a tick label is drawn, in pixels (11 px system sans-serif: 6.2 px a character on average). */
export function labelWidth(label: string): number {
  return label.length * 6.2;
}

/**
 * Indexes of the category labels to print so that none overlap: every n-th one counted back from the last (the
 * newest point always has its label), n the smallest step whose labels fit with `gap` pixels between them.
 */
export function labelIndexes(labels: readonly string[], width: number, gap = 24): number[] {
  const n = labels.length;
  if (n === 0) return [];
  const slot = width / n;
  const widest = Math.max(...labels.map(labelWidth));
  const step = Math.max(1, Math.ceil((widest + gap) / Math.max(slot, 1e-6)));
  const out: number[] = [];
  for (let i = n - 1; i >= 0; i -= step) out.push(i);
  return out.reverse();
}

export interface Point {
  x: number;
  y: number;
}

/**
 * An SVG path through the points with monotone cubic interpolation in x (Fritsch–Carlson, as d3's curveMonotoneX):
 * smooth, yet never overshooting a local high or low, so a chart never shows a value the data does not have.
 * `null` entries are gaps: the line stops and starts again after them.
 */
export function monotonePath(points: readonly (Point | null)[]): string {
  const runs: Point[][] = [];
  let run: Point[] = [];
  for (const p of points) {
    if (p) run.push(p);
    else if (run.length > 0) {
      runs.push(run);
      run = [];
    }
  }
  if (run.length > 0) runs.push(run);
  return runs.map(monotoneRun).join("");
}

function monotoneRun(ps: readonly Point[]): string {
  const f = (v: number) => Number(v.toFixed(2));
  const first = ps[0]!;
  if (ps.length === 1) return `M${f(first.x)},${f(first.y)}Z`;
  if (ps.length === 2) return `M${f(first.x)},${f(first.y)}L${f(ps[1]!.x)},${f(ps[1]!.y)}`;
  const n = ps.length;
  // Tangents as d3's curveMonotoneX computes them, so the curve looks like the charts analysts know.
  const sign = (v: number) => (v < 0 ? -1 : 1);
  const tangents: number[] = new Array<number>(n).fill(0);
  for (let i = 1; i < n - 1; i++) {
    const h0 = ps[i]!.x - ps[i - 1]!.x;
    const h1 = ps[i + 1]!.x - ps[i]!.x;
    const s0 = h0 === 0 ? 0 : (ps[i]!.y - ps[i - 1]!.y) / h0;
    const s1 = h1 === 0 ? 0 : (ps[i + 1]!.y - ps[i]!.y) / h1;
    const p = (s0 * h1 + s1 * h0) / (h0 + h1 || 1);
    tangents[i] = (sign(s0) + sign(s1)) * Math.min(Math.abs(s0), Math.abs(s1), 0.5 * Math.abs(p)) || 0;
  }
  const end = (a: Point, b: Point, t: number) => {
    const h = b.x - a.x;
    return h === 0 ? t : (3 * (b.y - a.y)) / h / 2 - t / 2;
  };
  tangents[0] = end(ps[0]!, ps[1]!, tangents[1]!);
  tangents[n - 1] = end(ps[n - 2]!, ps[n - 1]!, tangents[n - 2]!);
  let d = `M${f(first.x)},${f(first.y)}`;
  for (let i = 0; i < n - 1; i++) {
    const p = ps[i]!;
    const q = ps[i + 1]!;
    const h = (q.x - p.x) / 3;
    d += `C${f(p.x + h)},${f(p.y + h * tangents[i]!)},${f(q.x - h)},${f(q.y - h * tangents[i + 1]!)},${f(q.x)},${f(q.y)}`;
  }
  return d;
}
