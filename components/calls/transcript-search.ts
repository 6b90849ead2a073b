import type { Segment } from "@/lib/schemas/calls";

/** One occurrence of the search text: which segment, and where in its text. */
export interface TranscriptMatch {
  segmentIndex: number;
  start: number;
  end: number;
}

/**
 * Case- and accent-insensitive occurrences of `query` in the segments' texts, in reading order. Folding keeps
 * string length (one UTF-16 unit in, one out, for the letters that matter here), so offsets index the original text.
 * Fewer than 2 characters find nothing: one letter matches everywhere and helps nobody.
 */
export function findMatches(
  segments: readonly Pick<Segment, "text">[],
  query: string,
  limit = 5_000,
): TranscriptMatch[] {
  const needle = fold(query.trim());
  if (needle.length < 2) return [];
  const matches: TranscriptMatch[] = [];
  for (let i = 0; i < segments.length; i++) {
    const hay = fold(segments[i]!.text);
    let from = 0;
    for (;;) {
      const at = hay.indexOf(needle, from);
      if (at < 0) break;
      matches.push({ segmentIndex: i, start: at, end: at + needle.length });
      if (matches.length >= limit) return matches;
      from = at + needle.length;
    }
  }
  return matches;
}

/** Lower case without combining accents, character by character so that indices stay aligned. */
export function fold(text: string): string {
  let out = "";
  for (const ch of text) {
    const base = ch
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase();
    // Keep alignment: a character whose folded form changes length stays as it was (lower-cased if possible).
    out += base.length === ch.length ? base : ch.toLowerCase().length === ch.length ? ch.toLowerCase() : ch;
  }
  return out;
}

export interface TextPart {
  text: string;
  /** Index of the match in the whole transcript's match list; null for plain text. */
  matchIndex: number | null;
}

/** Splits a segment's text into plain and highlighted parts, for the matches that fall in it. */
export function splitHighlights(
  text: string,
  matches: readonly (TranscriptMatch & { index: number })[],
): TextPart[] {
  if (matches.length === 0) return [{ text, matchIndex: null }];
  const parts: TextPart[] = [];
  let at = 0;
  for (const m of [...matches].sort((a, b) => a.start - b.start)) {
    if (m.start < at) continue;
    if (m.start > at) parts.push({ text: text.slice(at, m.start), matchIndex: null });
    parts.push({ text: text.slice(m.start, m.end), matchIndex: m.index });
    at = m.end;
  }
  if (at < text.length) parts.push({ text: text.slice(at), matchIndex: null });
  return parts;
}

/** Groups matches by segment index (each keeps its position in the overall list) for O(1) lookup per row. */
export function matchesBySegment(
  matches: readonly TranscriptMatch[],
): Map<number, (TranscriptMatch & { index: number })[]> {
  const map = new Map<number, (TranscriptMatch & { index: number })[]>();
  matches.forEach((m, index) => {
    const list = map.get(m.segmentIndex) ?? [];
    list.push({ ...m, index });
    map.set(m.segmentIndex, list);
  });
  return map;
}

/** Next/previous match, wrapping around. */
export function stepMatch(current: number, count: number, direction: 1 | -1): number {
  if (count === 0) return -1;
  if (current < 0) return direction === 1 ? 0 : count - 1;
  return (current + direction + count) % count;
}

/**
 * The segment being heard at `ms` (audio position from the call's start): the one whose [startMs, endMs) holds it,
 * else the last one that started before it (in a pause between sentences, the previous sentence stays marked).
 * Binary search: this runs on every `timeupdate`.
 */
export function segmentIndexAt(segments: readonly Pick<Segment, "startMs" | "endMs">[], ms: number): number {
  let lo = 0;
  let hi = segments.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (segments[mid]!.startMs <= ms) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

const STOP_WORDS = new Set(
  "the a an and or of to in on for with at by from is are was were be been this that these those it its we our as has have had will would can could than more into over per".split(
    " ",
  ),
);

function words(text: string): Set<string> {
  return new Set(
    fold(text)
      .split(/[^a-z0-9.%$]+/)
      .map((w) => w.replace(/^[.]+|[.]+$/g, ""))
      .filter((w) => w.length > 1 && !STOP_WORDS.has(w)),
  );
}

/**
 * The segment a summary point most likely comes from: the largest share of the point's words found in the
 * sentence (extractive summaries copy sentences, abstractive ones reuse their key words). -1 when nothing overlaps.
 */
export function closestSegmentIndex(segments: readonly Pick<Segment, "text">[], point: string): number {
  const target = words(point);
  if (target.size === 0) return -1;
  let best = -1;
  let bestScore = 0;
  for (let i = 0; i < segments.length; i++) {
    const candidate = words(segments[i]!.text);
    let shared = 0;
    for (const w of target) if (candidate.has(w)) shared++;
    const score = shared / (target.size + 0.25 * candidate.size);
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  }
  return best;
}
