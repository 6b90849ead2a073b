/** Small helpers every section of a script uses: templates, names, and the spoken-time budget. */
import type { Line } from "./types";

/**
 * Rough spoken length of a sentence with its pause. Figures expand when read ("$4.2 billion" is five spoken
 * words), hence the weight on tokens with digits. Calibrated against the speech engine's default rate (~175 wpm).
 */
export function estimateSpeechSeconds(text: string): number {
  // A character loop, not split + regex: scripts are sized by calling this thousands of times per call.
  let words = 0;
  let inWord = false;
  let hasDigit = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) {
      if (inWord) words += hasDigit ? 3 : 1;
      inWord = false;
      hasDigit = false;
    } else {
      inWord = true;
      if (c >= 48 && c <= 57) hasDigit = true;
    }
  }
  if (inWord) words += hasDigit ? 3 : 1;
  return words * 0.36 + 0.7;
}

export function fill(template: string, slots: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => slots[key] ?? whole);
}

/** "Halvorsen & Co." ends its own sentence; "Crestline Research" needs the full stop. */
export function sentenceEnd(phrase: string): string {
  return phrase.endsWith(".") ? phrase : `${phrase}.`;
}

export function firstName(full: string): string {
  return full.split(" ")[0] ?? full;
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Lines kept in order: every `keep` line plus as many others as fit the budget. */
export function trimToBudget(lines: readonly Line[], budgetSeconds: number): Line[] {
  let used = lines.filter((l) => l.keep).reduce((s, l) => s + estimateSpeechSeconds(l.text), 0);
  const out: Line[] = [];
  for (const line of lines) {
    if (line.keep) {
      out.push(line);
      continue;
    }
    const cost = estimateSpeechSeconds(line.text);
    if (used + cost <= budgetSeconds) {
      out.push(line);
      used += cost;
    }
  }
  return out;
}

/** Estimated spoken seconds of some lines. */
export const cost = (lines: readonly Line[]): number =>
  lines.reduce((s, l) => s + estimateSpeechSeconds(l.text), 0);
