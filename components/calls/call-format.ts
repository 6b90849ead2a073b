import { MISSING } from "@/lib/format";
import type { Segment } from "@/lib/schemas/calls";

/** 75 → "1:15", 3725 → "1:02:05": call offsets and elapsed times, for tabular figures. */
export function formatClock(totalSeconds: number | null | undefined): string {
  if (
    totalSeconds === null ||
    totalSeconds === undefined ||
    !Number.isFinite(totalSeconds) ||
    totalSeconds < 0
  ) {
    return MISSING;
  }
  const s = Math.floor(totalSeconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** "OPERATOR" → "Operator", "SPEAKER_2" → "Speaker 2"; the enriched name when there is one. */
export function speakerLabel(segment: Pick<Segment, "speaker" | "speakerName">): string {
  if (segment.speakerName) return segment.speakerName;
  const label = segment.speaker.replace(/_/g, " ").toLowerCase();
  return label.charAt(0).toUpperCase() + label.slice(1);
}

/** Sentiment −1..1 as a signed figure: "+0.42", "−0.10", "—". */
export function formatSentiment(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return MISSING;
  const fixed = Math.abs(value).toFixed(2);
  if (Number(fixed) === 0) return "0.00";
  return `${value < 0 ? "\u2212" : "+"}${fixed}`;
}

export function sentimentTone(value: number | null | undefined): "pos" | "neg" | "neutral" {
  if (value === null || value === undefined || !Number.isFinite(value)) return "neutral";
  if (value >= 0.1) return "pos";
  if (value <= -0.1) return "neg";
  return "neutral";
}

/** Mean sentiment of scored segments; null when none is scored yet. */
export function meanSentiment(segments: readonly Pick<Segment, "sentiment">[]): number | null {
  let sum = 0;
  let n = 0;
  for (const s of segments) {
    if (s.sentiment === null || !Number.isFinite(s.sentiment)) continue;
    sum += s.sentiment;
    n++;
  }
  return n > 0 ? sum / n : null;
}

/**
 * What the scored segments' sentiment is: "enriched" once every scored segment carries the upstream's enriched
 * score, "live estimate" while any is still the live bus's estimate; null when nothing is scored yet.
 */
export function sentimentSourceLabel(
  segments: readonly Pick<Segment, "sentiment" | "sentimentSource">[],
): "live estimate" | "enriched" | null {
  let scored = false;
  for (const s of segments) {
    if (s.sentiment === null || !Number.isFinite(s.sentiment)) continue;
    scored = true;
    if (s.sentimentSource !== "enriched") return "live estimate";
  }
  return scored ? "enriched" : null;
}
