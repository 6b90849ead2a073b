/**
 * What the samplers (sample.ts, sample-fresh.ts) draw on, and how they draw it, so every split of the labelled set is
 * drawn the same way: from each call up to ten sentences in three strata (see sample.ts).
 */
import type { CorpusCall, CorpusSentence } from "./corpus";
import { seededRandom } from "../lib/common";

/** A sentence that states an amount, or looks ahead. */
export const AMOUNT =
  /\$\s?\d|\d(?:\.\d+)?\s?(?:%|percent\b|basis points?\b|bps\b|cents?\b|billion\b|million\b)/i;
export const FORWARD =
  /\b(?:guidance|guide|outlook|expect\w*|anticipat\w*|forecast\w*|target\w*|project(?:ed|ion|ing)?s?|reaffirm\w*|reiterat\w*|going forward|next quarter|full[- ]year|fiscal (?:year )?20\d\d|we will|we plan)\b/i;

export type Shuffle = <T>(xs: T[]) => T[];

/** A Fisher–Yates shuffle in place on a seeded generator: the same seed draws the same labelled set again. */
export function seededShuffle(seed: number): Shuffle {
  const random = seededRandom(seed);
  return <T>(xs: T[]): T[] => {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [xs[i], xs[j]] = [xs[j]!, xs[i]!];
    }
    return xs;
  };
}

/** The corpus's files by ticker (the file name's first part), those `keep` accepts. */
export function filesByCompany(files: readonly string[], keep: (symbol: string) => boolean = () => true) {
  const byCompany = new Map<string, string[]>();
  for (const f of files) {
    const symbol = f.split("_")[0]!.toUpperCase();
    if (keep(symbol)) byCompany.set(symbol, [...(byCompany.get(symbol) ?? []), f]);
  }
  return byCompany;
}

/**
 * One call's sentences for labelling, in call order: 6 management sentences that state an amount, 1 analyst
 * sentence with an amount or forward-looking words, 3 sentences of anyone with forward-looking words.
 */
export function drawStrata(call: CorpusCall, shuffle: Shuffle): CorpusSentence[] {
  const chosen = new Set<CorpusSentence>();
  const take = (pool: CorpusSentence[], n: number) => {
    for (const s of shuffle(pool.filter((s) => !chosen.has(s))).slice(0, n)) chosen.add(s);
  };
  take(
    call.sentences.filter((s) => s.role === "management" && AMOUNT.test(s.text)),
    6,
  );
  take(
    call.sentences.filter((s) => s.role === "analyst" && (AMOUNT.test(s.text) || FORWARD.test(s.text))),
    1,
  );
  take(
    call.sentences.filter((s) => FORWARD.test(s.text)),
    3,
  );
  return [...chosen].sort((a, b) => a.sequence - b.sequence);
}

/** A drawn sentence as labels.json holds it before its labels are written: where it is, never its words. */
export function unlabelledEntry(file: string, split: string, s: CorpusSentence) {
  return {
    file,
    split,
    section: s.section,
    turn: s.turn,
    offset: s.offset,
    length: s.length,
    guidance: null,
    figures: null,
  };
}
