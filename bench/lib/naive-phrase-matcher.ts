/**
 * The baseline the alert-matching benchmark measures the phrase index against: what an engine without an index
 * does, every rule checked against every sentence. It is not naive about the words: a sentence is split and
 * stemmed once, with the same functions as the index (server/alerts/text.ts), and a rule out of scope or of the
 * wrong speaker role is skipped before its phrase is looked at. So the ratio measures the index alone.
 */
import type { SentenceInput } from "../../server/alerts/matcher";
import { speakerRoleOf, type CompiledRule } from "../../server/alerts/rules";
import { StemCache } from "../../server/alerts/text";

export class NaivePhraseMatcher {
  private readonly stems = new StemCache();
  private readonly rules: { rule: CompiledRule; phrases: string[][] }[];

  constructor(rules: readonly CompiledRule[]) {
    this.rules = rules
      // Keyword rules only, as the index (guidance rules go through the insights' classifier, not phrases).
      .filter((rule) => rule.kind === "keyword")
      .map((rule) => ({
        rule,
        phrases: [rule.phrase ?? ""]
          .map((phrase) => this.stems.stems(phrase))
          .filter((stems) => stems.length > 0),
      }));
  }

  match(sentence: SentenceInput): CompiledRule[] {
    const stems = this.stems.stems(sentence.text);
    const symbol = sentence.symbol.toUpperCase();
    const role = speakerRoleOf(sentence.speaker);
    const out: CompiledRule[] = [];
    for (const { rule, phrases } of this.rules) {
      if (rule.tickers !== null && !rule.tickers.has(symbol)) continue;
      if (rule.speakerRole !== null && rule.speakerRole !== role) continue;
      if (phrases.some((phrase) => occursIn(phrase, stems))) out.push(rule);
    }
    return out;
  }
}

function occursIn(phrase: readonly string[], stems: readonly string[]): boolean {
  for (let i = 0; i + phrase.length <= stems.length; i++) {
    let j = 0;
    while (j < phrase.length && stems[i + j] === phrase[j]) j++;
    if (j === phrase.length) return true;
  }
  return false;
}
