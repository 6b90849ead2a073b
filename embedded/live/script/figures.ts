/**
 * Figures written the way a transcript writes them (docs/upstream.md §7: `$1.99`, `$4.2 billion`, `12%`): digits, a unit
 * word for large amounts, no trailing ".0". The speech engine reads these aloud, so they stay in this form.
 */

/** A decimal string of the calendar ("1.990", "") as a number, or null when empty/invalid. */
export function parseAmount(value: string | undefined): number | null {
  if (value === undefined || value.trim() === "") return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

function trimZeros(text: string): string {
  return text.includes(".") ? text.replace(/\.?0+$/, "") : text;
}

/** `$4.2 billion`, `$812 million`, `$81.5 million`, `$950,000`. Sign is the caller's business. */
export function formatMoney(amount: number): string {
  const abs = Math.abs(amount);
  if (abs >= 1e12) return `$${trimZeros((abs / 1e12).toFixed(2))} trillion`;
  if (abs >= 1e10) return `$${trimZeros((abs / 1e9).toFixed(1))} billion`;
  if (abs >= 1e9) return `$${trimZeros((abs / 1e9).toFixed(2))} billion`;
  if (abs >= 1e8) return `$${Math.round(abs / 1e6)} million`;
  if (abs >= 1e6) return `$${trimZeros((abs / 1e6).toFixed(1))} million`;
  return `$${Math.round(abs).toLocaleString("en-US")}`;
}

/** Per-share amounts always carry cents, as reported: `$1.99`, `$0.40`. */
export function formatPerShare(amount: number): string {
  return `$${Math.abs(amount).toFixed(2)}`;
}

/** `12%` from 12.3, `4.5%` from 4.46; below 10 one decimal is kept because small moves matter. */
export function formatPercent(value: number): string {
  const abs = Math.abs(value);
  return abs >= 10 ? `${Math.round(abs)}%` : `${trimZeros(abs.toFixed(1))}%`;
}

export const PERIOD_WORDS: Record<string, string> = {
  Q1: "first quarter",
  Q2: "second quarter",
  Q3: "third quarter",
  Q4: "fourth quarter",
  FY: "fiscal year",
  H1: "first half",
  H2: "second half",
};

export function periodWords(period: string): string {
  return PERIOD_WORDS[period] ?? "quarter";
}
