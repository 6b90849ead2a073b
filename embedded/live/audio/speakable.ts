/**
 * Turns transcript text into words a speech engine reads the way an analyst would say them.
 *
 * Transcripts write figures in digits (`$1.99`, `$4.2 billion`, `12%`, `Q3 2026`). eSpeak reads `$1.99` as
 * "dollar one point nine nine" and `-2%` as a command-line option, so figures are spelled out here instead of
 * trusting the engine. Spelling them out also gives word timing a syllable count that matches what is heard.
 *
 * Work is per whitespace token so every written token keeps its own spoken form: word timings are reported per
 * written token (see `word-timing.ts`). A currency sign followed by a scale word moves to the scale token
 * ("$4.2" "billion" → "four point two" "billion dollars").
 */

const ONES = [
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
] as const;
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"] as const;
const SCALES = ["", "thousand", "million", "billion", "trillion", "quadrillion"] as const;

function below100(n: number): string {
  if (n < 20) return ONES[n] ?? "";
  const tens = TENS[Math.floor(n / 10)] ?? "";
  const rest = n % 10;
  return rest === 0 ? tens : `${tens}-${ONES[rest]}`;
}

function below1000(n: number): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  const parts: string[] = [];
  if (hundreds > 0) parts.push(`${ONES[hundreds]} hundred`);
  if (rest > 0 || hundreds === 0) parts.push(below100(rest));
  return parts.join(" ");
}

/** English words for a non-negative integer given as digits (any length up to the quadrillions). */
export function integerWords(digits: string): string {
  const clean = digits.replace(/^0+(?=\d)/, "");
  if (clean.length > 18)
    return clean
      .split("")
      .map((d) => ONES[Number(d)])
      .join(" ");
  if (/^0+$/.test(clean)) return "zero";
  const groups: number[] = [];
  for (let end = clean.length; end > 0; end -= 3)
    groups.unshift(Number(clean.slice(Math.max(0, end - 3), end)));
  const parts: string[] = [];
  groups.forEach((g, i) => {
    if (g === 0) return;
    const scale = SCALES[groups.length - 1 - i] ?? "";
    parts.push(scale ? `${below1000(g)} ${scale}` : below1000(g));
  });
  return parts.join(" ");
}

/** "12.5" → "twelve point five"; "1,250" → "one thousand two hundred fifty". */
export function numberWords(text: string): string {
  const [int = "0", frac] = text.replace(/,/g, "").split(".");
  const whole = integerWords(int === "" ? "0" : int);
  if (frac === undefined || frac === "") return whole;
  return `${whole} point ${frac
    .split("")
    .map((d) => ONES[Number(d)])
    .join(" ")}`;
}

/** Years are said in pairs: 2026 → "twenty twenty-six", 2005 → "two thousand five", 1999 → "nineteen ninety-nine". */
export function yearWords(year: string): string {
  const n = Number(year);
  if (n >= 2000 && n < 2010) return integerWords(year);
  const hi = Math.floor(n / 100);
  const lo = n % 100;
  if (lo === 0) return `${below100(hi)} hundred`;
  return `${below100(hi)} ${lo < 10 ? `oh ${ONES[lo]}` : below100(lo)}`;
}

const SCALE_WORDS: Record<string, string> = {
  k: "thousand",
  thousand: "thousand",
  m: "million",
  mm: "million",
  mn: "million",
  million: "million",
  b: "billion",
  bn: "billion",
  billion: "billion",
  t: "trillion",
  tn: "trillion",
  trillion: "trillion",
};

const CURRENCIES: Record<string, { one: string; many: string; cent: string; cents: string }> = {
  $: { one: "dollar", many: "dollars", cent: "cent", cents: "cents" },
  "€": { one: "euro", many: "euros", cent: "cent", cents: "cents" },
  "£": { one: "pound", many: "pounds", cent: "penny", cents: "pence" },
};

const ABBREVIATIONS: Record<string, string> = {
  EPS: "E P S",
  YoY: "year over year",
  QoQ: "quarter over quarter",
  bps: "basis points",
  "Q&A": "Q and A",
  "&": "and",
  "Mr.": "Mister",
  "Mrs.": "Missus",
  "Ms.": "Miz",
  "Dr.": "Doctor",
  "vs.": "versus",
  vs: "versus",
  "approx.": "approximately",
  CEO: "C E O",
  CFO: "C F O",
  COO: "C O O",
  "M&A": "M and A",
  "R&D": "R and D",
  "SG&A": "S G and A",
};

interface Figure {
  words: string;
  /** Currency still to be said after a following scale word. */
  pendingCurrency?: string;
}

const MONEY = /^([+\-−–]?)([$€£])(\d[\d,]*(?:\.\d+)?)(k|m|mm|mn|b|bn|t|tn)?$/i;
const PERCENT = /^([+\-−–]?)(\d[\d,]*(?:\.\d+)?)%$/;
const MULTIPLE = /^(\d+(?:\.\d+)?)x$/i;
const BPS = /^(\d[\d,]*(?:\.\d+)?)bps$/i;
const PLAIN = /^([+\-−–]?)(\d[\d,]*(?:\.\d+)?)$/;
const YEAR = /^(19\d\d|20\d\d)$/;
const FISCAL = /^FY'?(\d{2}|\d{4})$/i;
const QUARTER = /^([QH])([1-4])$/;
const ORDINAL = /^(\d+)(st|nd|rd|th)$/i;

function signWord(sign: string): string {
  if (sign === "+") return "plus ";
  return sign ? "minus " : "";
}

function moneyWords(
  sign: string,
  symbol: string,
  amount: string,
  scaleSuffix: string | undefined,
  nextScale: boolean,
): Figure {
  const currency = CURRENCIES[symbol] ?? CURRENCIES.$!;
  const prefix = signWord(sign);
  if (scaleSuffix) {
    const scale = SCALE_WORDS[scaleSuffix.toLowerCase()] ?? "";
    return { words: `${prefix}${numberWords(amount)} ${scale} ${currency.many}` };
  }
  if (nextScale) return { words: `${prefix}${numberWords(amount)}`, pendingCurrency: currency.many };
  const [int = "0", frac] = amount.replace(/,/g, "").split(".");
  const units = Number(int);
  // Per-share figures ("$1.99", "$0.85") are said as dollars and cents; other decimals as "point".
  if (frac !== undefined && frac.length === 2) {
    const cents = Number(frac);
    const centWord = cents === 1 ? currency.cent : currency.cents;
    if (units === 0) return { words: `${prefix}${integerWords(frac)} ${centWord}` };
    const unitWord = units === 1 ? currency.one : currency.many;
    if (cents === 0) return { words: `${prefix}${integerWords(int)} ${unitWord}` };
    return { words: `${prefix}${integerWords(int)} ${unitWord} and ${integerWords(frac)} ${centWord}` };
  }
  const unitWord = units === 1 && frac === undefined ? currency.one : currency.many;
  return { words: `${prefix}${numberWords(amount)} ${unitWord}` };
}

const YEAR_CONTEXT =
  /^(in|for|since|by|through|until|during|of|fiscal|year|calendar|early|late|mid|from|to|and|into|before|after|January|February|March|April|May|June|July|August|September|October|November|December)$/i;

function figureWords(
  core: string,
  next: string | undefined,
  prev: string | undefined,
  atClauseEnd: boolean,
): Figure | undefined {
  const nextScale = next !== undefined && SCALE_WORDS[next.toLowerCase()] !== undefined && next.length > 2;
  let m = MONEY.exec(core);
  if (m) return moneyWords(m[1] ?? "", m[2] ?? "$", m[3] ?? "0", m[4], nextScale);
  m = PERCENT.exec(core);
  if (m) return { words: `${signWord(m[1] ?? "")}${numberWords(m[2] ?? "0")} percent` };
  m = MULTIPLE.exec(core);
  if (m) return { words: `${numberWords(m[1] ?? "0")} times` };
  m = BPS.exec(core);
  if (m) return { words: `${numberWords(m[1] ?? "0")} basis points` };
  m = FISCAL.exec(core);
  if (m) {
    const y = m[1] ?? "";
    return { words: `fiscal ${y.length === 4 ? yearWords(y) : below100(Number(y))}` };
  }
  m = QUARTER.exec(core);
  if (m) return { words: `${m[1]} ${ONES[Number(m[2])]}` };
  m = ORDINAL.exec(core);
  if (m) return { words: ordinalWords(m[1] ?? "0") };
  if (YEAR.test(core) && !nextScale) {
    // A bare 19xx/20xx is a year after a date-like word or at the end of a clause; "2025 units" stays a number.
    const prevCore = prev ?? "";
    if (atClauseEnd || YEAR_CONTEXT.test(prevCore) || QUARTER.test(prevCore))
      return { words: yearWords(core) };
  }
  m = PLAIN.exec(core);
  if (m) return { words: `${signWord(m[1] ?? "")}${numberWords(m[2] ?? "0")}` };
  return undefined;
}

const ORDINAL_WORDS: Record<string, string> = {
  one: "first",
  two: "second",
  three: "third",
  five: "fifth",
  eight: "eighth",
  nine: "ninth",
  twelve: "twelfth",
};

function ordinalWords(digits: string): string {
  const words = integerWords(digits);
  return words.replace(/([a-z]+)$/, (last) => {
    if (ORDINAL_WORDS[last]) return ORDINAL_WORDS[last];
    if (last.endsWith("y")) return `${last.slice(0, -1)}ieth`;
    return `${last}th`;
  });
}

export interface SpeakableToken {
  /** The token as written (punctuation included), exactly as it appears in the text. */
  text: string;
  /** What the engine is asked to say for it, with the token's punctuation kept for prosody; may be "". */
  spoken: string;
}

const LEADING = /^[("'“‘[]+/;
const TRAILING = /[)"'”’\].,;:!?]+$/;

function splitPunctuation(token: string): { lead: string; core: string; trail: string } {
  const lead = LEADING.exec(token)?.[0] ?? "";
  const rest = token.slice(lead.length);
  if (ABBREVIATIONS[rest] !== undefined) return { lead, core: rest, trail: "" };
  const trail = TRAILING.exec(rest)?.[0] ?? "";
  // "Mr." keeps its period; "$1.99." loses only the sentence period.
  const coreWithPeriod = rest.slice(0, rest.length - trail.length + (trail.startsWith(".") ? 1 : 0));
  if (trail.startsWith(".") && ABBREVIATIONS[coreWithPeriod] !== undefined) {
    return { lead, core: coreWithPeriod, trail: trail.slice(1) };
  }
  return { lead, core: rest.slice(0, rest.length - trail.length), trail };
}

/** Splits a range such as "$1.95-$2.05" or "3-4%" into its figures joined by "to". */
function splitRange(core: string): string[] | undefined {
  const m = /^([+\-]?[$€£]?\d[\d,.]*[%xkmbt]{0,2})[-–]([$€£]?\d[\d,.]*(?:%|x|bps|[kmbt]{1,2})?)$/i.exec(core);
  if (!m) return undefined;
  const b = m[2] ?? "";
  let a = m[1] ?? "";
  const currency = /^[$€£]/.exec(b)?.[0];
  if (currency && !/[$€£]/.test(a)) a = currency + a;
  if (b.endsWith("%") && !a.endsWith("%")) a = `${a}%`;
  return [a, b];
}

export function speakableTokens(text: string): SpeakableToken[] {
  const raw = text.split(/\s+/).filter((t) => t !== "");
  const cores = raw.map((t) => splitPunctuation(t).core);
  let pendingCurrency: string | undefined;
  return raw.map((token, i) => {
    const { lead, core, trail } = splitPunctuation(token);
    const next = cores[i + 1];
    const prev = cores[i - 1];
    let words: string;
    const abbreviation = ABBREVIATIONS[core];
    if (abbreviation !== undefined) {
      words = abbreviation;
    } else {
      const range = splitRange(core);
      const figures = range
        ? range
            .map((part, j) => figureWords(part, j === 0 ? undefined : next, prev, false)?.words ?? part)
            .join(" to ")
        : undefined;
      const atClauseEnd = trail !== "" || next === undefined;
      const figure = figures === undefined ? figureWords(core, next, prev, atClauseEnd) : { words: figures };
      if (figure) {
        words = figure.words;
        pendingCurrency = figure.pendingCurrency;
        return { text: token, spoken: `${lead}${words}${trail}` };
      }
      words = core.replace(/[“”‘’"]/g, "");
      if (pendingCurrency && SCALE_WORDS[core.toLowerCase()] !== undefined) {
        words = `${words} ${pendingCurrency}`;
      }
    }
    pendingCurrency = undefined;
    return { text: token, spoken: `${lead}${words}${trail}`.trim() };
  });
}

/** The text as the speech engine should read it. */
export function speakable(text: string): string {
  return speakableTokens(text)
    .map((t) => t.spoken)
    .filter((s) => s !== "")
    .join(" ");
}

/** Rough syllable count of spoken English, used to share a phrase's duration among its words. */
export function estimateSyllables(spoken: string): number {
  let total = 0;
  for (const word of spoken.split(/[\s-]+/)) {
    const w = word.replace(/[^A-Za-z']/g, "");
    if (w === "") continue;
    if (w.length === 1) {
      total += w.toUpperCase() === "W" ? 3 : 1; // a spelled letter
      continue;
    }
    if (/^[A-Z]{2,5}$/.test(w) && !/[AEIOU]/.test(w.slice(1))) {
      total += w.length + (w.includes("W") ? 2 : 0); // an acronym said letter by letter
      continue;
    }
    const lower = w
      .toLowerCase()
      .replace(/'s$/, "")
      .replace(/(?:[^laeiouy]es|ed|[^laeiouy]e)$/, "")
      .replace(/^y/, "");
    const groups = lower.match(/[aeiouy]{1,2}/g);
    total += Math.max(1, groups?.length ?? 0);
  }
  return total;
}
