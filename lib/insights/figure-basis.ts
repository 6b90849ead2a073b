/** A figure's basis, GAAP or adjusted, from the words before it (docs/insights.md, "Basis"). */
import type { FigureBasis } from "@/lib/schemas/insights";
import type { Mention } from "./mentions";

/**
 * "GAAP and adjusted diluted EPS of $0.81 and $0.86, respectively": the bases in the order of the amounts. Returns
 * the bases by position among the amounts after them, or null when the sentence has no such list.
 */
export function respectiveBases(
  text: string,
  mentions: readonly Mention[],
): { at: number; bases: FigureBasis[] } | null {
  const m =
    /\b(GAAP|adjusted|non-GAAP|reported)\s+and\s+(GAAP|adjusted|non-GAAP|reported)\b[^.;]*\brespectively\b/i.exec(
      text,
    );
  if (!m) return null;
  const basis = (w: string): FigureBasis => (/^(?:GAAP|reported)$/i.test(w) ? "gaap" : "adjusted");
  const first = mentions.findIndex((x) => x.start > m.index);
  return first < 0 ? null : { at: first, bases: [basis(m[1]!), basis(m[2]!)] };
}

function lastIndex(text: string, re: RegExp): number {
  const g = new RegExp(re.source, re.flags.includes("g") ? re.flags : `${re.flags}g`);
  let at = -1;
  for (const m of text.matchAll(g)) at = m.index;
  return at;
}

const ADJUSTED =
  /\b(?:non-?GAAP|adjusted|excluding(?! (?:currency|foreign exchange|FX)\b)|ex-items|core|pro forma|underlying|normalized|operating EPS|net operating earnings|NFE|comparable(?! (?:store |restaurant |shop )?sales)|organic(?:ally)?|cash EPS|as adjusted)\b/i;
const GAAP = /(?<![-\w])GAAP\b|\breported\b|\bas reported\b/;

export function basisOf(text: string, upTo: number): FigureBasis | null {
  const before = text.slice(0, upTo);
  const adj = lastIndex(before, ADJUSTED);
  const gaap = lastIndex(before, GAAP);
  if (adj < 0 && gaap < 0) {
    const rest = text.slice(upTo, upTo + 60);
    if (ADJUSTED.test(rest)) return "adjusted";
    if (GAAP.test(rest)) return "gaap";
    return null;
  }
  return adj > gaap ? "adjusted" : "gaap";
}
