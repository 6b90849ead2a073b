/**
 * BM25 over sentences, for "the most similar sentence of the previous call". Amounts are left out of the tokens on
 * purpose: "revenue was $4.2 billion" must find last quarter's "revenue was $3.9 billion", since that pair is the
 * change worth showing.
 */

const STOP = new Set(
  (
    "a an the and or but of to in on for with at by from as is are was were be been being this that these those it its " +
    "we our us you your they their i me my he she his her them so if then than there here also just very really about " +
    "into over under again more most some such can could would should will may might do does did have has had not no " +
    "yes all any each both few other which who whom what when where why how up down out off only own same too s t " +
    "let lets well thank thanks think know going get got quarter year"
  ).split(" "),
);

/** Lower-case word stems without amounts or stop words; a light suffix strip is enough for matching sentences. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().split(/[^a-z&]+/)) {
    if (raw.length < 2 || STOP.has(raw)) continue;
    out.push(stem(raw));
  }
  return out;
}

function stem(w: string): string {
  if (w.length > 5 && w.endsWith("ies")) return `${w.slice(0, -3)}y`;
  if (w.length > 5 && w.endsWith("ing")) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith("ed")) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) return w.slice(0, -1);
  return w;
}

export interface Bm25Match {
  index: number;
  score: number;
  /** Dice overlap of the two token sets, 0–1: comparable across queries, unlike the BM25 score. */
  similarity: number;
}

const K1 = 1.2;
const B = 0.75;

/** An index over a fixed list of documents (one call's sentences, or an archive's). */
export class Bm25Index {
  private readonly postings = new Map<string, { doc: number; tf: number }[]>();
  private readonly lengths: number[] = [];
  private readonly tokenSets: Set<string>[] = [];
  private readonly avgLength: number;
  private scores = new Float64Array(0);

  constructor(documents: readonly string[]) {
    let total = 0;
    documents.forEach((text, doc) => {
      const tokens = tokenize(text);
      this.lengths.push(tokens.length);
      this.tokenSets.push(new Set(tokens));
      total += tokens.length;
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [term, n] of tf) {
        let list = this.postings.get(term);
        if (!list) this.postings.set(term, (list = []));
        list.push({ doc, tf: n });
      }
    });
    this.avgLength = documents.length === 0 ? 1 : Math.max(1, total / documents.length);
  }

  get size(): number {
    return this.lengths.length;
  }

  /** The best-scoring document for `text` among those `accept` allows (all by default), or null. */
  best(text: string, accept?: (index: number) => boolean): Bm25Match | null {
    const terms = [...new Set(tokenize(text))];
    if (terms.length === 0) return null;
    const n = this.lengths.length;
    // One scores array per index, reset through the list of touched documents: a Map of thousands of entries per
    // query was most of the cost on a 15,000-sentence archive.
    if (this.scores.length !== n) this.scores = new Float64Array(n);
    const scores = this.scores;
    const touched: number[] = [];
    for (const term of terms) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const { doc, tf } of list) {
        if (accept && !accept(doc)) continue;
        const norm = tf + K1 * (1 - B + (B * this.lengths[doc]!) / this.avgLength);
        if (scores[doc] === 0) touched.push(doc);
        scores[doc]! += (idf * tf * (K1 + 1)) / norm;
      }
    }
    let bestDoc = -1;
    let bestScore = 0;
    for (const doc of touched) {
      const score = scores[doc]!;
      scores[doc] = 0;
      if (score > bestScore || (score === bestScore && doc < bestDoc)) {
        bestScore = score;
        bestDoc = doc;
      }
    }
    if (bestDoc < 0) return null;
    const other = this.tokenSets[bestDoc]!;
    let shared = 0;
    for (const t of terms) if (other.has(t)) shared++;
    const similarity = (2 * shared) / (terms.length + other.size);
    return { index: bestDoc, score: bestScore, similarity };
  }
}
