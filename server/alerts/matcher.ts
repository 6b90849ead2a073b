import "server-only";
import { speakerRoleOf, type CompiledRule } from "./rules";
import { StemCache, wordsAsSaid } from "./text";

/**
 * Keyword rules' phrases compiled into one index, so a
 * sentence costs one pass over its words however many rules there are:
 *
 * - every phrase is reduced to its word stems (server/alerts/text.ts); identical phrases of different users share
 *   one entry, keyed by the phrase's first stem;
 * - a sentence's stems are looked up one by one; an entry whose remaining stems follow matches;
 * - a matching entry's rules are bucketed by ticker, so scope costs a map lookup rather than a pass over every user.
 *
 * With 1,000 users × 10 rules that is a few map lookups per word (bench/alerts.ts measures it).
 */

interface Bucket {
  all: CompiledRule[];
  bySymbol: Map<string, CompiledRule[]>;
}

interface Entry {
  rest: string[];
  bucket: Bucket;
}

/**
 * A rule a sentence fired, with the sentence's words that matched it (as said, each once). `matched` may be shared by
 * every rule of the same phrase: read it, never change it.
 */
export interface PhraseHit {
  rule: CompiledRule;
  matched: string[];
}

export interface SentenceInput {
  symbol: string;
  speaker: string;
  text: string;
}

export class PhraseMatcher {
  private readonly index = new Map<string, Entry[]>();
  private readonly stems = new StemCache();
  readonly phraseCount: number;

  constructor(rules: readonly CompiledRule[]) {
    const byPhrase = new Map<string, Entry>();
    for (const rule of rules) {
      // Guidance rules are not phrases: the evaluator asks the insights' guidance classifier (docs/insights.md).
      const phrases = rule.kind === "keyword" ? [rule.phrase ?? ""] : [];
      for (const phrase of phrases) {
        const stems = this.stems.stems(phrase);
        const first = stems[0];
        if (first === undefined) continue;
        const key = stems.join(" ");
        let entry = byPhrase.get(key);
        if (!entry) {
          entry = { rest: stems.slice(1), bucket: { all: [], bySymbol: new Map() } };
          byPhrase.set(key, entry);
          const list = this.index.get(first);
          if (list) list.push(entry);
          else this.index.set(first, [entry]);
        }
        if (rule.tickers === null) entry.bucket.all.push(rule);
        else
          for (const symbol of rule.tickers) {
            const list = entry.bucket.bySymbol.get(symbol);
            if (list) list.push(rule);
            else entry.bucket.bySymbol.set(symbol, [rule]);
          }
      }
    }
    this.phraseCount = byPhrase.size;
  }

  /** The rules a sentence fires, each once (a rule whose phrase appears twice still fires once). */
  match(sentence: SentenceInput): PhraseHit[] {
    const stems = this.stems.stems(sentence.text);
    let hit: Map<Bucket, [start: number, length: number][]> | null = null;
    for (let i = 0; i < stems.length; i++) {
      const entries = this.index.get(stems[i]!);
      if (entries === undefined) continue;
      for (const entry of entries) {
        if (i + entry.rest.length >= stems.length) continue;
        let ok = true;
        for (let j = 0; j < entry.rest.length; j++)
          if (stems[i + 1 + j] !== entry.rest[j]) {
            ok = false;
            break;
          }
        if (!ok) continue;
        hit ??= new Map();
        const spans = hit.get(entry.bucket);
        if (spans) spans.push([i, entry.rest.length + 1]);
        else hit.set(entry.bucket, [[i, entry.rest.length + 1]]);
      }
    }
    if (hit === null) return [];
    const said = wordsAsSaid(sentence.text, stems.length);
    const symbol = sentence.symbol.toUpperCase();
    const role = speakerRoleOf(sentence.speaker);
    const byRule = new Map<CompiledRule, PhraseHit>();
    const out: PhraseHit[] = [];
    const take = (rules: readonly CompiledRule[] | undefined, words: string[]) => {
      if (!rules) return;
      for (const rule of rules) {
        if (rule.speakerRole !== null && rule.speakerRole !== role) continue;
        const found = byRule.get(rule);
        if (!found) {
          // One words array for every rule of this phrase (thousands of users may share it); copied only to merge.
          const hit = { rule, matched: words };
          byRule.set(rule, hit);
          out.push(hit);
        } else if (found.matched !== words) {
          found.matched = [...new Set([...found.matched, ...words])];
        }
      }
    };
    for (const [bucket, spans] of hit) {
      const words =
        spans.length === 1
          ? [said.slice(spans[0]![0], spans[0]![0] + spans[0]![1]).join(" ")]
          : [...new Set(spans.map(([start, length]) => said.slice(start, start + length).join(" ")))];
      take(bucket.all, words);
      take(bucket.bySymbol.get(symbol), words);
    }
    return out;
  }
}
