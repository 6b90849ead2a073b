/**
 * Word timings estimated from the synthesized clip itself.
 *
 * The eSpeak command-line program (all the npm build exposes) reports no word events, so timings are derived in two
 * steps, both documented in the report:
 * 1. Speech/silence structure: a 5 ms RMS envelope marks voiced frames; silences of at least `MIN_PAUSE_MS` inside
 *    the speech are pause candidates. A clause boundary of the text (a token ending in , ; : . ! ?) is where eSpeak
 *    pauses, so when there are at least as many candidates as boundaries, the longest ones (in time order) split
 *    the speech into one span per clause. Otherwise the whole voiced range is one span.
 * 2. Within a span the time is shared among the clause's words in proportion to their estimated syllables (of the
 *    spoken form, so "$4.2" weighs as "four point two"); each boundary then snaps to a short silence nearby (a
 *    word gap or a stop closure) if there is one within `SNAP_MS`.
 * Timings are in order, contiguous within a clause, and inside [0, clip duration].
 */
import { estimateSyllables, type SpeakableToken } from "./speakable";
import type { WordTiming } from "./types";

const FRAME_MS = 5;
const MIN_PAUSE_MS = 90;
const MIN_GAP_MS = 15;
const SNAP_MS = 70;

export interface VoicedStructure {
  frameMs: number;
  /** One flag per frame: true where there is speech. */
  voiced: boolean[];
  /** First and last voiced frame (inclusive), or -1 when the clip is silent. */
  first: number;
  last: number;
}

export function voicedStructure(samples: Int16Array, sampleRate: number): VoicedStructure {
  const frameLen = Math.max(1, Math.round((sampleRate * FRAME_MS) / 1000));
  const frames = Math.ceil(samples.length / frameLen);
  const rms = new Float64Array(frames);
  let peak = 0;
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    const end = Math.min(samples.length, (f + 1) * frameLen);
    for (let i = f * frameLen; i < end; i++) {
      const s = samples[i] ?? 0;
      sum += s * s;
    }
    rms[f] = Math.sqrt(sum / Math.max(1, end - f * frameLen));
    if (rms[f]! > peak) peak = rms[f]!;
  }
  // Relative to the clip's loudest frame, with an absolute floor so dithering or DC is never "speech".
  const threshold = Math.max(peak * 0.03, 60);
  const voiced = Array.from(rms, (r) => r > threshold);
  return { frameMs: FRAME_MS, voiced, first: voiced.indexOf(true), last: voiced.lastIndexOf(true) };
}

interface Gap {
  start: number; // frame index of the first silent frame
  end: number; // exclusive
}

function gapsWithin(v: VoicedStructure, minFrames: number): Gap[] {
  const gaps: Gap[] = [];
  let runStart = -1;
  for (let f = v.first; f <= v.last; f++) {
    if (!v.voiced[f]) {
      if (runStart < 0) runStart = f;
    } else if (runStart >= 0) {
      if (f - runStart >= minFrames) gaps.push({ start: runStart, end: f });
      runStart = -1;
    }
  }
  return gaps;
}

const CLAUSE_END = /[,;:.!?]["')\]”’]*$/;

export function estimateWordTimings(
  tokens: readonly SpeakableToken[],
  samples: Int16Array,
  sampleRate: number,
): WordTiming[] {
  if (tokens.length === 0) return [];
  const clipMs = (samples.length * 1000) / sampleRate;
  const v = voicedStructure(samples, sampleRate);
  if (v.first < 0) return tokens.map((t) => ({ text: t.text, startMs: 0, endMs: 0 }));

  const clauses: SpeakableToken[][] = [[]];
  tokens.forEach((t, i) => {
    clauses[clauses.length - 1]!.push(t);
    if (i < tokens.length - 1 && CLAUSE_END.test(t.text)) clauses.push([]);
  });

  const speechStart = v.first * v.frameMs;
  const speechEnd = Math.min(clipMs, (v.last + 1) * v.frameMs);
  const pauses = gapsWithin(v, Math.ceil(MIN_PAUSE_MS / v.frameMs));
  const spans: Array<[number, number]> = [];
  if (clauses.length > 1 && pauses.length >= clauses.length - 1) {
    const chosen = [...pauses]
      .sort((a, b) => b.end - b.start - (a.end - a.start))
      .slice(0, clauses.length - 1)
      .sort((a, b) => a.start - b.start);
    let from = speechStart;
    for (const p of chosen) {
      spans.push([from, p.start * v.frameMs]);
      from = p.end * v.frameMs;
    }
    spans.push([from, speechEnd]);
  } else {
    // Not enough pauses to tell clauses apart: one span, clauses weighted like words.
    spans.push([speechStart, speechEnd]);
    clauses.splice(0, clauses.length, clauses.flat());
  }

  const shortGaps = gapsWithin(v, Math.ceil(MIN_GAP_MS / v.frameMs)).map(
    (g) => ((g.start + g.end) / 2) * v.frameMs,
  );
  const out: WordTiming[] = [];
  clauses.forEach((clause, c) => {
    const [s, e] = spans[c]!;
    const weights = clause.map((t) => (t.spoken === "" ? 0.2 : estimateSyllables(t.spoken)));
    const total = weights.reduce((a, b) => a + b, 0) || 1;
    const bounds = [s];
    let acc = 0;
    for (let i = 0; i < clause.length - 1; i++) {
      acc += weights[i]!;
      const guess = s + ((e - s) * acc) / total;
      const near = shortGaps.filter((g) => Math.abs(g - guess) <= SNAP_MS && g > bounds[i]! && g < e);
      const snapped = near.sort((a, b) => Math.abs(a - guess) - Math.abs(b - guess))[0];
      bounds.push(Math.max(bounds[i]!, snapped ?? guess));
    }
    bounds.push(e);
    clause.forEach((t, i) => {
      const startMs = Math.max(0, Math.min(clipMs, Math.round(bounds[i]!)));
      const endMs = Math.max(startMs, Math.min(clipMs, Math.round(bounds[i + 1]!)));
      out.push({ text: t.text, startMs, endMs });
    });
  });
  return out;
}
