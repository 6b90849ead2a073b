/** Keeps at most `max` points, evenly spaced, always including the last (charts stay fast and readable). */
export function downsample<T>(points: readonly T[], max = 2000): T[] {
  if (points.length <= max) return [...points];
  const step = points.length / max;
  const out: T[] = [];
  for (let i = 0; i < max - 1; i++) out.push(points[Math.floor(i * step)]!);
  out.push(points[points.length - 1]!);
  return out;
}
