/**
 * What a call says about itself in its opening (docs/insights.md, "Periods"): the company's name ("welcome to the
 * Example Widgets Third Quarter 2027 results call", in the usual form) and the fiscal quarter it reports. The quarter the call
 * names is trusted over the listing's metadata, which can be a year off for companies whose fiscal year is not
 * the calendar's.
 */
import type { TranscriptSentence } from "./sentence";
import { QUARTER_ORDINALS } from "./ordinals";

/** How far into a call its opening lasts. */
const OPENING = 60;

const NAME_BEFORE_PERIOD =
  /\b(?:welcome to|joining us (?:for|on)|thank you for (?:joining|standing by)(?: for| to)?|participating in|this is)\s+(?:the\s+)?((?:[A-Z][\w&.'’-]*\s+){1,5}?)(?=(?:first|second|third|fourth|1st|2nd|3rd|4th|Q[1-4]|fiscal|FY|20\d\d|full[- ]year|year[- ]end|quarterly|earnings|conference|financial|results|investor)\b)/i;
const PERIOD =
  /\b(?:(first|second|third|fourth|1st|2nd|3rd|4th)[- ](?:fiscal[- ])?quarter|Q([1-4]))(?:\s+(?:of\s+)?(?:fiscal\s+)?(?:year\s+)?(20\d\d))\b|\b(?:fiscal\s+)?(20\d\d)\s+(?:(first|second|third|fourth)[- ]quarter|Q([1-4]))\b/gi;
/** A sentence about the call's own results, where the quarter named is the one reported. */
const ABOUT_RESULTS = /\b(?:results|earnings|conference call|call|report(?:ed|ing)?|performance)\b/i;

export interface CallFacts {
  /** Lower-case words of the company's name, in order, without "'s". */
  company: readonly string[];
  fiscalYear: number | null;
  fiscalQuarter: number | null;
}

const GENERIC = new Set([
  "the",
  "and",
  "of",
  "inc",
  "inc.",
  "corp",
  "corporation",
  "company",
  "co",
  "group",
  "holdings",
  "ltd",
]);

export function readCallFacts(sentences: readonly TranscriptSentence[]): CallFacts {
  const company: string[] = [];
  const votes = new Map<string, number>();
  for (const s of sentences.slice(0, OPENING)) {
    if (company.length === 0) {
      const m = NAME_BEFORE_PERIOD.exec(s.text);
      if (m)
        for (const w of m[1]!.trim().split(/\s+/)) {
          const word = w.replace(/['’]s$/i, "").toLowerCase();
          if (word && !GENERIC.has(word)) company.push(word);
        }
    }
    if (!ABOUT_RESULTS.test(s.text)) continue;
    for (const m of s.text.matchAll(PERIOD)) {
      const quarter = Number(QUARTER_ORDINALS[(m[1] ?? m[5] ?? "").toLowerCase()] ?? m[2] ?? m[6]);
      const year = Number(m[3] ?? m[4]);
      if (!quarter || !year) continue;
      const key = `${year}:${quarter}`;
      // The earliest mentions (the operator's welcome, the host's opening) weigh the most.
      votes.set(key, (votes.get(key) ?? 0) + 1 + (s.sequence < 15 ? 1 : 0));
    }
  }
  let best: [string, number] | null = null;
  for (const entry of votes) if (!best || entry[1] > best[1]) best = entry;
  const [year, quarter] = best ? best[0].split(":").map(Number) : [null, null];
  return { company, fiscalYear: year ?? null, fiscalQuarter: quarter ?? null };
}
