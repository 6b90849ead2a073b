/**
 * Amounts as spoken in a sentence: "$4.2 billion", "1.2 billion dollars", "$850M", "12%", "40 basis points",
 * "$1.99 per share", "12 cents", ranges ("$7.88 to $8.2 billion", "between 44% and 45%") and qualitative ranges
 * ("low single digits"). A bare number without a unit (a year, "3 new customers") is not an amount.
 */
import type { FigureScale } from "@/lib/schemas/insights";

export type MentionUnit = "usd" | "usd_per_share" | "percent" | "bps";

export interface Mention {
  start: number;
  end: number;
  /** Plain units; a range's midpoint. */
  value: number;
  low?: number;
  high?: number;
  unit: MentionUnit;
  scale: FigureScale;
  /** A qualitative range ("low single digits"), not a stated number. */
  isApproximate: boolean;
  quote: string;
}

const SCALES: Record<string, { scale: FigureScale; factor: number }> = {
  thousand: { scale: "thousand", factor: 1e3 },
  k: { scale: "thousand", factor: 1e3 },
  million: { scale: "million", factor: 1e6 },
  mm: { scale: "million", factor: 1e6 },
  m: { scale: "million", factor: 1e6 },
  billion: { scale: "billion", factor: 1e9 },
  bn: { scale: "billion", factor: 1e9 },
  b: { scale: "billion", factor: 1e9 },
  trillion: { scale: "trillion", factor: 1e12 },
};

// One amount: currency sign, digits, scale, and a unit; every part but the digits optional.
const AMOUNT = String.raw`(\$\s?)?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:\s?(thousand|million|billion|trillion|bn|mm|[kmb])\b)?(?:\s(dollars?))?(?:\s?(%|percent(?:age points?)?\b|basis points?\b|bps\b|cents?\b))?(?:\s((?:per|a) (?:diluted |basic )?share)\b)?`;
const AMOUNT_RE = new RegExp(AMOUNT, "gi");

interface RawAmount {
  start: number;
  end: number;
  number: number;
  hasDollar: boolean;
  scale: FigureScale | null;
  factor: number;
  unitWord: string | null;
  perShare: boolean;
  quote: string;
}

function readAmounts(text: string): RawAmount[] {
  const out: RawAmount[] = [];
  for (const m of text.matchAll(AMOUNT_RE)) {
    const start = m.index;
    // "Q3", "20-F", "10-K": a number glued to letters is a label, not an amount.
    if (start > 0 && /[A-Za-z]/.test(text[start - 1]!)) continue;
    const [quote, dollar, int, frac, scaleWord, dollarsWord, unitWord, perShare] = m;
    const number = Number(`${int!.replace(/,/g, "")}${frac ?? ""}`);
    const sc = scaleWord ? SCALES[scaleWord.toLowerCase()] : undefined;
    // A single-letter scale only counts glued to a dollar amount ("$850M"), never "3 m" in prose.
    if (sc && scaleWord!.length === 1 && !dollar) continue;
    out.push({
      start,
      end: start + quote.length,
      number,
      hasDollar: Boolean(dollar) || Boolean(dollarsWord),
      scale: sc?.scale ?? null,
      factor: sc?.factor ?? 1,
      unitWord: unitWord ? unitWord.toLowerCase() : null,
      perShare: Boolean(perShare),
      quote: quote.trimEnd(),
    });
  }
  return out;
}

function unitOf(a: RawAmount): MentionUnit | null {
  const w = a.unitWord;
  if (w === "%" || w === "percent") return "percent";
  if (w !== null && w.startsWith("percentage point")) return "bps";
  if (w !== null && (w.startsWith("basis point") || w === "bps")) return "bps";
  if (w !== null && w.startsWith("cent")) return "usd_per_share";
  if (a.perShare) return "usd_per_share";
  if (a.hasDollar) return "usd";
  return null;
}

function plainValue(a: RawAmount, unit: MentionUnit, factor: number): number {
  const w = a.unitWord;
  if (w !== null && w.startsWith("percentage point")) return a.number * 100;
  if (w !== null && w.startsWith("cent")) return a.number / 100;
  if (unit === "percent" || unit === "bps") return a.number;
  return a.number * factor;
}

const RANGE_JOIN = /^\s*(?:to|-|–|and)\s*$/i;

const QUALITATIVE: { re: RegExp; low: number; high: number }[] = [
  { re: /\blow[- ]single[- ]digits?\b/gi, low: 1, high: 3 },
  { re: /\bmid[- ]single[- ]digits?\b/gi, low: 4, high: 6 },
  { re: /\bhigh[- ]single[- ]digits?\b/gi, low: 7, high: 9 },
  { re: /\blow[- ]double[- ]digits?\b/gi, low: 10, high: 13 },
  { re: /\bmid[- ]teens\b/gi, low: 14, high: 16 },
  { re: /\bhigh[- ]teens\b/gi, low: 17, high: 19 },
  { re: /\blow[- ]teens\b/gi, low: 11, high: 13 },
];

/** Floating-point noise off ("8.2 × 1e9" is 8199999999.999999): twelve significant digits are plenty. */
const round = (n: number) => Number(n.toPrecision(12));

/** Every amount in `text`, in order; the two ends of a range come back as one mention. */
export function findMentions(text: string): Mention[] {
  const raws = readAmounts(text);
  const mentions: Mention[] = [];
  for (let i = 0; i < raws.length; i++) {
    const a = raws[i]!;
    const b = raws[i + 1];
    const joined = b && RANGE_JOIN.test(text.slice(a.end, b.start));
    if (b && joined) {
      // The unit and scale said once at the end cover both ends: "$7.88 to $8.2 billion", "44 to 45%".
      const unit = unitOf(b) ?? unitOf(a);
      const unitA = unitOf(a) ?? unit;
      if (unit !== null && unitA === unit) {
        const factor = b.factor;
        const aFactor = a.scale ? a.factor : factor;
        const lowV = plainValue(a.unitWord ? a : { ...a, unitWord: b.unitWord }, unit, aFactor);
        const highV = plainValue(b, unit, factor);
        const [low, high] = lowV <= highV ? [lowV, highV] : [highV, lowV];
        mentions.push({
          start: a.start,
          end: b.end,
          value: round((low + high) / 2),
          low: round(low),
          high: round(high),
          unit,
          scale: b.scale ?? a.scale ?? "one",
          isApproximate: false,
          quote: text.slice(a.start, b.end),
        });
        i++;
        continue;
      }
    }
    const unit = unitOf(a);
    if (unit === null) continue;
    mentions.push({
      start: a.start,
      end: a.end,
      value: round(plainValue(a, unit, a.factor)),
      unit,
      scale: a.scale ?? "one",
      isApproximate: false,
      quote: a.quote,
    });
  }
  for (const q of QUALITATIVE) {
    for (const m of text.matchAll(q.re)) {
      mentions.push({
        start: m.index,
        end: m.index + m[0].length,
        value: (q.low + q.high) / 2,
        low: q.low,
        high: q.high,
        unit: "percent",
        scale: "one",
        isApproximate: true,
        quote: m[0],
      });
    }
  }
  return mentions.sort((x, y) => x.start - y.start);
}
