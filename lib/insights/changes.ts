/**
 * What changed since the previous call: each sentence of this call is matched to the most similar sentence of the
 * previous one (BM25, ./similarity); a matched pair whose figures or intensity words differ is a change. Topics
 * (./topics) are compared over the whole calls: new this quarter, or dropped since (only once this call is over,
 * since a live call may still get to them).
 */
import type { Change, Figure } from "@/lib/schemas/insights";
import { extractFigures, isFact } from "./figures";
import { dominantIntensity } from "./intensity";
import { Bm25Index } from "./similarity";
import { sentenceTopics } from "./topics";

/** Below this Dice overlap two sentences are not "the same statement"; tuned so boilerplate pairs pass. */
export const MATCH_THRESHOLD = 0.45;
const COMPARABLE_PERIODS = new Set<Figure["period"]>(["quarter", "next_quarter", "full_year"]);
/** Figures within this relative distance count as unchanged (rounding when spoken). */
const SAME_VALUE = 0.005;

export interface ComparableSentence {
  sequence: number;
  startMs: number;
  text: string;
  speaker: string;
}

/** The previous call, indexed once; `figures` per sentence cached alongside. */
export class PreviousCallIndex {
  readonly index: Bm25Index;
  readonly figures: Figure[][];
  readonly topics: Map<string, ComparableSentence>;

  constructor(readonly sentences: readonly ComparableSentence[]) {
    this.index = new Bm25Index(sentences.map((s) => s.text));
    this.figures = sentences.map((s) => extractFigures(s).filter(isFact));
    this.topics = new Map();
    for (const s of sentences) {
      if (/^operator$/i.test(s.speaker)) continue;
      for (const t of sentenceTopics(s.text)) if (!this.topics.has(t)) this.topics.set(t, s);
    }
  }
}

function baseChange(
  kind: Change["kind"],
  current: ComparableSentence | null,
  previous: ComparableSentence | null,
  similarity: number,
): Change {
  return {
    id: `${kind}:${current?.sequence ?? "-"}:${previous?.sequence ?? "-"}`,
    kind,
    sequence: current?.sequence ?? null,
    startMs: current?.startMs ?? null,
    text: current?.text ?? null,
    previousSequence: previous?.sequence ?? null,
    previousStartMs: previous?.startMs ?? null,
    previousText: previous?.text ?? null,
    similarity: Math.round(similarity * 100) / 100,
    metric: null,
    unit: null,
    before: null,
    after: null,
    fromWord: null,
    toWord: null,
    topic: null,
  };
}

/** The changes one sentence of this call shows against its best match in the previous call. */
export function sentenceChanges(
  sentence: ComparableSentence,
  figures: readonly Figure[],
  previous: PreviousCallIndex,
): Change[] {
  if (/^operator$/i.test(sentence.speaker)) return [];
  const match = previous.index.best(sentence.text);
  if (!match || match.similarity < MATCH_THRESHOLD) return [];
  const before = previous.sentences[match.index]!;
  const out: Change[] = [];
  // Year-ago and last-quarter figures restate history: their drift between calls is not news.
  const facts = figures.filter((f) => isFact(f) && COMPARABLE_PERIODS.has(f.period));
  for (const f of facts) {
    const old = previous.figures[match.index]!.find(
      (p) =>
        p.metric === f.metric &&
        p.kind === f.kind &&
        p.unit === f.unit &&
        p.isGuidance === f.isGuidance &&
        p.segment === f.segment &&
        (p.period === f.period || (f.isGuidance && p.isGuidance)),
    );
    if (!old || old.value === f.value) continue;
    if (Math.abs(f.value - old.value) <= Math.abs(old.value) * SAME_VALUE) continue;
    const up = f.value > old.value;
    const kind = f.isGuidance
      ? up
        ? "guidance_raised"
        : "guidance_lowered"
      : up
        ? "figure_up"
        : "figure_down";
    out.push({
      ...baseChange(kind, sentence, before, match.similarity),
      id: `${kind}:${f.id}`,
      metric: f.metric,
      unit: f.unit,
      before: old.value,
      after: f.value,
      topic: f.segment,
    });
  }
  const now = dominantIntensity(sentence.text);
  const then = dominantIntensity(before.text);
  if (now && then && now.level !== then.level) {
    out.push({
      ...baseChange(
        now.level > then.level ? "intensity_up" : "intensity_down",
        sentence,
        before,
        match.similarity,
      ),
      fromWord: then.word,
      toWord: now.word,
    });
  }
  return out;
}

/** Topics this call raises that the previous one never did, at their first mention. */
export function newTopics(
  sentences: readonly ComparableSentence[],
  previous: PreviousCallIndex,
  segmentsThen: ReadonlySet<string>,
  segmentsNow: ReadonlyMap<string, ComparableSentence>,
): Change[] {
  const seen = new Set<string>();
  const out: Change[] = [];
  for (const s of sentences) {
    if (/^operator$/i.test(s.speaker)) continue;
    for (const topic of sentenceTopics(s.text)) {
      if (seen.has(topic)) continue;
      seen.add(topic);
      if (!previous.topics.has(topic))
        out.push({ ...baseChange("new_topic", s, null, 1), id: `new_topic:${topic}`, topic });
    }
  }
  for (const [segment, s] of segmentsNow) {
    if (!segmentsThen.has(segment))
      out.push({ ...baseChange("new_topic", s, null, 1), id: `new_topic:${segment}`, topic: segment });
  }
  return out;
}

/** Topics of the previous call this (finished) call never mentioned. */
export function droppedTopics(
  sentences: readonly ComparableSentence[],
  previous: PreviousCallIndex,
): Change[] {
  const now = new Set<string>();
  for (const s of sentences)
    if (!/^operator$/i.test(s.speaker)) for (const t of sentenceTopics(s.text)) now.add(t);
  const out: Change[] = [];
  for (const [topic, then] of previous.topics) {
    if (!now.has(topic))
      out.push({ ...baseChange("dropped_topic", null, then, 1), id: `dropped_topic:${topic}`, topic });
  }
  return out;
}
