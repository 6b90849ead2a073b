import type { Segment } from "@/lib/schemas/calls";

export interface SentimentPoint {
  /** Seconds from the call's start. */
  t: number;
  /** −1..1 for this segment. */
  value: number;
  /** Mean of the last `window` scored segments. */
  mean: number;
}

export const MAX_CHART_POINTS = 2_000;

/**
 * Scored segments as chart points with a trailing rolling mean (segments without a score yet are left out; the mean
 * runs over scored ones only).
 */
export function sentimentSeries(
  segments: readonly Pick<Segment, "startMs" | "sentiment">[],
  window = 12,
): SentimentPoint[] {
  const out: SentimentPoint[] = [];
  const ring: number[] = [];
  let sum = 0;
  for (const s of segments) {
    if (s.sentiment === null || !Number.isFinite(s.sentiment)) continue;
    ring.push(s.sentiment);
    sum += s.sentiment;
    if (ring.length > window) sum -= ring.shift()!;
    out.push({ t: s.startMs / 1000, value: s.sentiment, mean: sum / ring.length });
  }
  return out;
}

/**
 * Shrinks a series to at most `max` points with Largest-Triangle-Three-Buckets on `value`: keeps the first and last
 * point and, per bucket, the point that best preserves the line's shape (peaks survive, unlike plain averaging).
 * Returns the input when it is already small enough.
 */
export function downsample<P extends { t: number; value: number }>(
  points: readonly P[],
  max = MAX_CHART_POINTS,
): P[] {
  if (points.length <= max) return points.slice();
  if (max < 3) return points.slice(0, Math.max(max, 0));
  const out: P[] = [points[0]!];
  const bucketSize = (points.length - 2) / (max - 2);
  let a = 0;
  for (let i = 0; i < max - 2; i++) {
    const start = Math.floor(i * bucketSize) + 1;
    const end = Math.min(Math.floor((i + 1) * bucketSize) + 1, points.length - 1);
    const nextStart = end;
    const nextEnd = Math.min(Math.floor((i + 2) * bucketSize) + 1, points.length);
    let avgT = 0;
    let avgV = 0;
    const nextCount = Math.max(nextEnd - nextStart, 1);
    for (let j = nextStart; j < nextStart + nextCount && j < points.length; j++) {
      avgT += points[j]!.t;
      avgV += points[j]!.value;
    }
    avgT /= nextCount;
    avgV /= nextCount;
    const pa = points[a]!;
    let bestArea = -1;
    let best = start;
    for (let j = start; j < end; j++) {
      const p = points[j]!;
      const area = Math.abs((pa.t - avgT) * (p.value - pa.value) - (pa.t - p.t) * (avgV - pa.value));
      if (area > bestArea) {
        bestArea = area;
        best = j;
      }
    }
    out.push(points[best]!);
    a = best;
  }
  out.push(points[points.length - 1]!);
  return out;
}
