/**
 * Intensity words and their strength, for "strong" → "modest" between two matching sentences. The scale is ordinal:
 * only the direction of a shift is reported, never its size.
 */
const WORDS: Record<string, number> = {
  exceptional: 3,
  outstanding: 3,
  extraordinary: 3,
  record: 3,
  tremendous: 3,
  excellent: 3,
  robust: 2,
  strong: 2,
  healthy: 2,
  solid: 1,
  good: 1,
  steady: 1,
  stable: 0,
  moderate: -1,
  modest: -1,
  mixed: -1,
  muted: -1,
  soft: -2,
  softer: -2,
  slower: -2,
  weak: -2,
  challenging: -2,
  difficult: -2,
  disappointing: -3,
  poor: -3,
};

const WORD_RE = new RegExp(`\\b(${Object.keys(WORDS).join("|")})\\b`, "gi");

export interface IntensityWord {
  word: string;
  level: number;
}

/** The intensity words of a sentence, in order. */
export function intensityWords(text: string): IntensityWord[] {
  return [...text.matchAll(WORD_RE)].map((m) => {
    const word = m[1]!.toLowerCase();
    return { word, level: WORDS[word]! };
  });
}

/** The strongest-magnitude word of a sentence (what it leans on), or null. */
export function dominantIntensity(text: string): IntensityWord | null {
  let best: IntensityWord | null = null;
  for (const w of intensityWords(text)) if (!best || Math.abs(w.level) > Math.abs(best.level)) best = w;
  return best;
}
