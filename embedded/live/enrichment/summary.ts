/**
 * Extractive call summary by TextRank (Mihalcea & Tarau, 2004): sentences are nodes, edges are weighted by the
 * TF-IDF cosine similarity of their stemmed content words, and weighted PageRank (damping 0.85) runs to
 * convergence. The most central sentences are the ones that share the most vocabulary with the rest of the call,
 * which in an earnings call are the headline results and the outlook.
 *
 * Figure weighting (the product asks to favour figures slightly): after PageRank, a sentence's rank is multiplied
 * by 1 + 0.1 if it states a figure (a number, amount or percentage) + 0.1 if it names a headline metric (EPS,
 * revenue, guidance, margin, cash flow…), so at most ×1.2. That reorders near-ties in favour of the sentences an
 * analyst wants without letting a peripheral number outrank the centre of the call.
 */
import type { ParticipantRole } from "./types";
import { BOUNDARY, STOP_WORDS, isNumberToken, isProcedural, splitSentences, stem, tokenize } from "./text";

export const DAMPING = 0.85;
const CONVERGENCE_EPSILON = 1e-9;
const MAX_ITERATIONS = 500;
const FIGURE_BOOST = 0.1;
const METRIC_BOOST = 0.1;
/** Candidates more similar than this to an already chosen point repeat it ("revenue grew 12%" said twice). */
export const NEAR_DUPLICATE_SIMILARITY = 0.5;
const MIN_POINTS = 5;
const MAX_POINTS = 8;
/** About one point per this many candidate sentences, between MIN_POINTS and MAX_POINTS. */
const SENTENCES_PER_POINT = 12;
/** Fragments shorter than this say too little to stand alone as a point ("Sure, happy to."). */
const MIN_WORDS = 6;

const METRIC_PATTERN =
  /\b(eps|earnings per share|revenue|revenues|sales|guidance|outlook|margin|margins|cash flow|operating income|net income|bookings|backlog|ebitda|dividend|buyback|repurchase)\b/i;

export type TermVector = Map<string, number>;

export function contentTerms(sentence: string): string[] {
  return tokenize(sentence)
    .filter((token) => token !== BOUNDARY && !STOP_WORDS.has(token))
    .map((token) => (isNumberToken(token) ? token.replace(/,/g, "") : stem(token)));
}

/** TF-IDF vectors with sublinear term frequency and smoothed IDF, each sentence being one document. */
export function tfidfVectors(termLists: string[][]): TermVector[] {
  const documentFrequency = new Map<string, number>();
  for (const terms of termLists) {
    for (const term of new Set(terms)) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  }
  const count = termLists.length;
  return termLists.map((terms) => {
    const frequencies = new Map<string, number>();
    for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
    const vector: TermVector = new Map();
    for (const [term, frequency] of frequencies) {
      const idf = Math.log((count + 1) / ((documentFrequency.get(term) ?? 0) + 1)) + 1;
      vector.set(term, (1 + Math.log(frequency)) * idf);
    }
    return vector;
  });
}

export function cosine(a: TermVector, b: TermVector): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (const [term, value] of a) {
    normA += value * value;
    const other = b.get(term);
    if (other !== undefined) dot += value * other;
  }
  for (const value of b.values()) normB += value * value;
  if (normA === 0 || normB === 0) return 0;
  return dot / Math.sqrt(normA * normB);
}

/**
 * Weighted PageRank over a symmetric similarity matrix. A node without edges spreads its rank evenly (the usual
 * dangling-node fix), so ranks always sum to 1. Iterates until the L1 change is below 1e-9.
 */
export function pageRank(similarity: number[][], damping = DAMPING): number[] {
  const size = similarity.length;
  if (size === 0) return [];
  const outWeight = similarity.map((row, i) =>
    row.reduce((sum, weight, j) => (i === j ? sum : sum + weight), 0),
  );
  // Typed rows and plain loops (the same operations in the same order, so the same ranks): a year of demo calls is
  // summarized on demand, and this loop is most of a summary's work.
  const rows = similarity.map((row) => Float64Array.from(row, (weight) => weight ?? 0));
  const out = Float64Array.from(outWeight);
  let ranks = new Float64Array(size).fill(1 / size);
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration += 1) {
    let danglingMass = 0;
    for (let i = 0; i < size; i += 1) if (out[i] === 0) danglingMass += ranks[i]!;
    const next = new Float64Array(size).fill((1 - damping) / size + (damping * danglingMass) / size);
    for (let j = 0; j < size; j += 1) {
      const weight = out[j]!;
      if (weight === 0) continue;
      const share = (damping * ranks[j]!) / weight;
      const row = rows[j] ?? new Float64Array(size);
      for (let i = 0; i < size; i += 1) {
        if (i !== j) next[i] = next[i]! + share * row[i]!;
      }
    }
    let change = 0;
    for (let i = 0; i < size; i += 1) change += Math.abs(next[i]! - ranks[i]!);
    ranks = next;
    if (change < CONVERGENCE_EPSILON) break;
  }
  return Array.from(ranks);
}

export function similarityMatrix(vectors: TermVector[]): number[][] {
  const matrix = vectors.map(() => new Array<number>(vectors.length).fill(0));
  // `cosine` per pair, with each vector's norm summed once (in the same order, so the values are identical): a
  // year of demo calls is summarized on demand, and the norms were most of the work.
  const norms = vectors.map((vector) => {
    let norm = 0;
    for (const value of vector.values()) norm += value * value;
    return norm;
  });
  for (let i = 0; i < vectors.length; i += 1) {
    const a = vectors[i] ?? new Map<string, number>();
    const normA = norms[i] ?? 0;
    for (let j = i + 1; j < vectors.length; j += 1) {
      const normB = norms[j] ?? 0;
      let value = 0;
      if (normA !== 0 && normB !== 0) {
        const b = vectors[j] ?? new Map<string, number>();
        let dot = 0;
        for (const [term, weight] of a) {
          const other = b.get(term);
          if (other !== undefined) dot += weight * other;
        }
        value = dot / Math.sqrt(normA * normB);
      }
      matrix[i]![j] = value;
      matrix[j]![i] = value;
    }
  }
  return matrix;
}

/** Plain TextRank scores of the given sentences (no figure boost), in input order. */
export function textRank(sentences: string[]): number[] {
  return pageRank(similarityMatrix(tfidfVectors(sentences.map(contentTerms))));
}

export function figureBoost(sentence: string): number {
  const hasFigure = tokenize(sentence).some(isNumberToken);
  return 1 + (hasFigure ? FIGURE_BOOST : 0) + (METRIC_PATTERN.test(sentence) ? METRIC_BOOST : 0);
}

export interface SummarySegment {
  sequence: number;
  text: string;
  role: ParticipantRole | null;
}

export interface Summary {
  lines: string[];
  sequences: number[];
}

interface Candidate {
  sequence: number;
  order: number;
  sentence: string;
}

/**
 * Candidates are the sentences of non-operator segments that are not procedural, not questions (an analyst's
 * question is not a finding) and not fragments.
 */
function candidatesOf(segments: SummarySegment[]): Candidate[] {
  const candidates: Candidate[] = [];
  for (const segment of segments) {
    if (segment.role === "Operator") continue;
    for (const sentence of splitSentences(segment.text)) {
      if (isProcedural(sentence) || sentence.trimEnd().endsWith("?")) continue;
      if (sentence.split(/\s+/).length < MIN_WORDS) continue;
      candidates.push({ sequence: segment.sequence, order: candidates.length, sentence });
    }
  }
  return candidates;
}

export function summarize(segments: SummarySegment[]): Summary {
  const candidates = candidatesOf(segments);
  if (candidates.length === 0) return { lines: [], sequences: [] };
  const vectors = tfidfVectors(candidates.map((candidate) => contentTerms(candidate.sentence)));
  const ranks = pageRank(similarityMatrix(vectors));
  const byRank = candidates
    .map((candidate, index) => ({
      candidate,
      index,
      score: (ranks[index] ?? 0) * figureBoost(candidate.sentence),
    }))
    .sort((a, b) => b.score - a.score || a.index - b.index);

  const target = Math.min(
    MAX_POINTS,
    Math.max(MIN_POINTS, Math.round(candidates.length / SENTENCES_PER_POINT)),
  );
  const chosen: { candidate: Candidate; index: number }[] = [];
  for (const entry of byRank) {
    if (chosen.length >= target) break;
    const vector = vectors[entry.index] ?? new Map();
    const repeats = chosen.some(
      (picked) =>
        picked.candidate.sentence === entry.candidate.sentence ||
        cosine(vector, vectors[picked.index] ?? new Map()) > NEAR_DUPLICATE_SIMILARITY,
    );
    if (!repeats) chosen.push(entry);
  }
  chosen.sort((a, b) => a.candidate.order - b.candidate.order);
  return {
    lines: chosen.map((c) => c.candidate.sentence),
    sequences: chosen.map((c) => c.candidate.sequence),
  };
}
