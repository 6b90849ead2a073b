import "server-only";

/**
 * Words as the matcher sees them. A phrase and a sentence go through the same two steps (split into words, reduce
 * each word to a crude stem), so "tariff" finds "Tariffs" and "raise guidance" finds "raised guidance". A phrase
 * matches consecutive whole words only: "tariff" does not match inside "antitariff".
 *
 * The stemmer is deliberately small (plurals, -ed, -ing, a final -e, doubled final consonants): it only has to map
 * the inflections of one word onto the same key, on both sides. It over-folds a little ("new" and "news" meet),
 * which an alert can afford better than missing "tariffs" after a rule said "tariff".
 */

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

/** Splits text into lower-case words; apostrophes stay inside a word ("company's"), everything else separates. */
export function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/**
 * The same words as `words`, as they were said (case kept), for quoting what matched. `count` is how many `words`
 * found: should lower-casing have changed a word's boundaries (a rare Unicode letter), the lower-case words are
 * quoted instead, so positions always agree.
 */
export function wordsAsSaid(text: string, count: number): string[] {
  const said = text.match(WORD) ?? [];
  return said.length === count ? said : words(text);
}

const VOWEL = /[aeiouy]/;

function undouble(word: string): string {
  const n = word.length;
  if (n >= 4 && word[n - 1] === word[n - 2] && !VOWEL.test(word[n - 1]!)) return word.slice(0, -1);
  return word;
}

/** The key one word is matched by; the same function runs over rules and sentences. */
export function stem(input: string): string {
  let w = input.replace(/['’]s$/, "").replace(/['’]/g, "");
  if (w.length <= 3 || /^\d/.test(w)) return w;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(?:ss|x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is")) w = w.slice(0, -1);
  if (w.endsWith("ing") && w.length > 5 && VOWEL.test(w.slice(0, -3))) w = w.slice(0, -3);
  else if (w.endsWith("ed") && w.length > 4 && VOWEL.test(w.slice(0, -2))) w = w.slice(0, -2);
  if (w.endsWith("e") && w.length > 4) w = w.slice(0, -1);
  return undouble(w);
}

const STEM_CACHE_LIMIT = 50_000;

/** `stem` with a bounded memo: a call's vocabulary repeats, and stemming is most of the matcher's work. */
export class StemCache {
  private readonly memo = new Map<string, string>();

  get(word: string): string {
    let s = this.memo.get(word);
    if (s === undefined) {
      if (this.memo.size >= STEM_CACHE_LIMIT) this.memo.clear();
      s = stem(word);
      this.memo.set(word, s);
    }
    return s;
  }

  stems(text: string): string[] {
    return words(text).map((w) => this.get(w));
  }
}
