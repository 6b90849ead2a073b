/**
 * Amounts as spoken in a sentence: "$4.2 billion", "1.2 billion dollars", "$850M", "12%", "40 basis points",
 * "$1.99 per share", "12 cents", "negative 1%", counts of people served ("2.2 million subscribers"), ranges ("$7.88 to
 * $8.2 billion", "between 44% and 45%", "negative 1% to flat") and qualitative ranges ("low single digits"). A bare
 * number without a unit (a year, "3 new customers") is not an amount, nor is a unit price ("$50 per barrel").
 */
import type { FigureScale } from "@/lib/schemas/insights";

export type MentionUnit = "usd" | "usd_per_share" | "percent" | "bps" | "count";

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
  /** Said with its own sign ("negative 1%", "minus 2%"): the value is already negative. */
  signed: boolean;
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
  /** "negative 1%": −1 (the start includes the word). */
  sign: 1 | -1;
  hasDollar: boolean;
  scale: FigureScale | null;
  factor: number;
  unitWord: string | null;
  perShare: boolean;
  count: boolean;
  quote: string;
}

/** "negative 1%", "minus 2%": the sign belongs to the amount. */
const SIGN_BEFORE = /\b(?:negative|minus)\s+$/i;
/** "$50 per barrel", "$1,300 a container": a price per unit, not an amount of a metric. */
const PER_UNIT_AFTER = /^\s*(?:per|a|an)\s+(?!share\b|diluted\b|basic\b|common\b|year\b|quarter\b)[a-z]/i;
/** A count of people or accounts served: "2.2 million subscribers", "12,000 members". */
const COUNT_AFTER =
  /^\s*(?:(?:net|new|paid|total|active|digital|monthly|daily|streaming|broadband|wireless|postpaid|prepaid|retail)\s+)*(?:subscribers|subscriptions|members|customers|users|accounts|households|connections)\b/i;

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
    const end = start + quote.trimEnd().length;
    if (
      !perShare &&
      (dollar || dollarsWord || unitWord?.startsWith("cent")) &&
      PER_UNIT_AFTER.test(text.slice(end))
    )
      continue;
    // "plus or minus $20 million" is a tolerance, not a negative amount.
    const signWord = /\bplus or\s+minus\s+$/i.test(text.slice(Math.max(0, start - 20), start))
      ? null
      : SIGN_BEFORE.exec(text.slice(Math.max(0, start - 12), start));
    const count =
      !dollar &&
      !dollarsWord &&
      !unitWord &&
      (sc !== undefined || number >= 1000) &&
      COUNT_AFTER.test(text.slice(end));
    out.push({
      start: signWord ? start - signWord[0].length : start,
      end,
      number,
      sign: signWord ? -1 : 1,
      hasDollar: Boolean(dollar) || Boolean(dollarsWord),
      scale: sc?.scale ?? null,
      factor: sc?.factor ?? 1,
      unitWord: unitWord ? unitWord.toLowerCase() : null,
      perShare: Boolean(perShare),
      count,
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
  if (a.count) return "count";
  return null;
}

function plainValue(a: RawAmount, unit: MentionUnit, factor: number): number {
  const w = a.unitWord;
  if (w !== null && w.startsWith("percentage point")) return a.sign * a.number * 100;
  if (w !== null && w.startsWith("cent")) return (a.sign * a.number) / 100;
  if (unit === "percent" || unit === "bps") return a.sign * a.number;
  return a.sign * a.number * factor;
}

const RANGE_JOIN = /^\s*(?:to|-|–|and)\s*$/i;
/** "between 44% and 45%": "and" joins a range only after "between" ("EPS of $1.12 and $1.09 respectively" is two). */
const BETWEEN_BEFORE = /\bbetween\s*$/i;
/** "grew from $3.1 billion to $4.2 billion": two levels, the old and the new, not a range. */
const FROM_BEFORE = /\bfrom\s*$/i;
/** "negative 1% to flat", "flat to up 2%": "flat" is the zero end of a range. */
const TO_FLAT = /^\s*to\s+flat\b/i;
const FLAT_TO = /\bflat\s+to\s+(?:(?:up|down)\s+)?$/i;

const QUALITATIVE: { re: RegExp; low: number; high: number }[] = [
  { re: /\blow[- ]single[- ]digits?\b/gi, low: 1, high: 3 },
  { re: /\bmid[- ]single[- ]digits?\b/gi, low: 4, high: 6 },
  { re: /\bhigh[- ]single[- ]digits?\b/gi, low: 7, high: 9 },
  { re: /\blow[- ]double[- ]digits?\b/gi, low: 10, high: 13 },
  { re: /\bmid[- ]teens\b/gi, low: 14, high: 16 },
  { re: /\bhigh[- ]teens\b/gi, low: 17, high: 19 },
  { re: /\blow[- ]teens\b/gi, low: 11, high: 13 },
  { re: /\blow[- ]twenties\b/gi, low: 20, high: 23 },
  { re: /\bmid[- ]twenties\b/gi, low: 24, high: 26 },
  { re: /\bhigh[- ]twenties\b/gi, low: 27, high: 29 },
  { re: /\b(?<!(?:low|mid|high)[- ])double[- ]digits?\b/gi, low: 10, high: 19 },
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
    const join = b ? text.slice(a.end, b.start) : "";
    const joined =
      b &&
      RANGE_JOIN.test(join) &&
      (!/\band\b/i.test(join) || BETWEEN_BEFORE.test(text.slice(Math.max(0, a.start - 10), a.start))) &&
      !FROM_BEFORE.test(text.slice(Math.max(0, a.start - 8), a.start));
    if (b && joined) {
      // The unit and scale said once at the end cover both ends: "$7.88 to $8.2 billion", "44 to 45%".
      const unit = unitOf(b) ?? unitOf(a);
      // "$1.75 to $1.95 per diluted share": "per share" said once at the end covers both ends.
      const unitA = b.perShare && a.hasDollar && !a.scale && !a.perShare ? unit : (unitOf(a) ?? unit);
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
          signed: a.sign < 0 || b.sign < 0,
          quote: text.slice(a.start, b.end),
        });
        i++;
        continue;
      }
    }
    const unit = unitOf(a);
    if (unit === null) continue;
    const value = round(plainValue(a, unit, a.factor));
    const flatAfter = TO_FLAT.exec(text.slice(a.end));
    const flatBefore = FLAT_TO.exec(text.slice(Math.max(0, a.start - 20), a.start));
    if ((flatAfter || flatBefore) && (unit === "percent" || unit === "bps")) {
      // "negative 1% to flat": a range with zero at one end.
      const [low, high] = value <= 0 ? [value, 0] : [0, value];
      mentions.push({
        start: flatBefore ? a.start - flatBefore[0].length : a.start,
        end: flatAfter ? a.end + flatAfter[0].length : a.end,
        value: round((low + high) / 2),
        low,
        high,
        unit,
        scale: "one",
        isApproximate: false,
        signed: a.sign < 0,
        quote: flatAfter ? text.slice(a.start, a.end + flatAfter[0].length) : a.quote,
      });
      continue;
    }
    mentions.push({
      start: a.start,
      end: a.end,
      value,
      unit,
      scale: a.scale ?? "one",
      isApproximate: false,
      signed: a.sign < 0,
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
        signed: false,
        quote: m[0],
      });
    }
  }
  return mentions.sort((x, y) => x.start - y.start);
}
