/**
 * Text handling for the sentiment scorer: sentence splitting, tokenizing, a light stemmer, stop words and the
 * detector of procedural call sentences. Everything is pure and locale-independent so enrichment is deterministic.
 */

/** Clause boundaries are kept as tokens so negation and intensifier scopes stop at them. */
export const BOUNDARY = "|";

// Abbreviations whose trailing period must not end a sentence ("Mr. Whitfield", "Northwind Inc. reported").
const ABBREVIATIONS = new Set([
  "mr",
  "mrs",
  "ms",
  "dr",
  "inc",
  "corp",
  "co",
  "ltd",
  "plc",
  "vs",
  "approx",
  "no",
  "st",
  "jr",
  "sr",
  "e.g",
  "i.e",
  "u.s",
  "u.k",
]);

/**
 * Splits text into sentences at `.`, `!` or `?` followed by white space and a capital, digit, quote or `$`.
 * Decimals (`$1.99`) have no white space after the point, so they never split.
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  const clean = text.replace(/\s+/g, " ").trim();
  if (clean === "") return sentences;
  let start = 0;
  const boundary = /[.!?]+["'’”)]*\s+(?=["'“‘(]?[A-Z0-9$])/g;
  for (let match = boundary.exec(clean); match !== null; match = boundary.exec(clean)) {
    const before = clean.slice(start, match.index);
    const lastWord = /([A-Za-z.]+)$/.exec(before)?.[1]?.toLowerCase() ?? "";
    if (match[0].startsWith(".") && ABBREVIATIONS.has(lastWord)) continue;
    // A single capital before the point is an initial ("John A. Smith").
    if (match[0].startsWith(".") && /(^|\s)[A-Z]$/.test(before)) continue;
    const end = match.index + match[0].trimEnd().length;
    sentences.push(clean.slice(start, end).trim());
    start = match.index + match[0].length;
  }
  const rest = clean.slice(start).trim();
  if (rest !== "") sentences.push(rest);
  return sentences;
}

/**
 * Lower-cased tokens: words (with inner apostrophes), numbers with their `$`/`%` decoration, and BOUNDARY for
 * clause punctuation. Hyphenated words split into their parts ("year-over-year" → year, over, year), so phrases
 * match either spelling.
 */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  const normalized = text.toLowerCase().replace(/[’‘]/g, "'");
  const pattern = /\$?\d[\d,]*(?:\.\d+)?%?|[a-z]+(?:'[a-z]+)*|[,;:.!?()—–]/g;
  for (const match of normalized.matchAll(pattern)) {
    const token = match[0];
    if (/^[,;:.!?()—–]$/.test(token)) {
      if (tokens[tokens.length - 1] !== BOUNDARY) tokens.push(BOUNDARY);
    } else {
      tokens.push(token);
    }
  }
  return tokens;
}

export function isNumberToken(token: string): boolean {
  return /^\$?\d/.test(token);
}

/** The percentage a token states ("12%" → 12), or null. "12 percent" is handled by the caller. */
export function percentOf(token: string): number | null {
  const match = /^(\d[\d,]*(?:\.\d+)?)%$/.exec(token);
  return match?.[1] === undefined ? null : Number(match[1].replace(/,/g, ""));
}

const NO_UNDOUBLE = new Set(["l", "s", "z"]);

function undouble(stem: string): string {
  const last = stem.at(-1);
  if (
    stem.length > 3 &&
    last !== undefined &&
    last === stem.at(-2) &&
    /[b-df-hj-np-tv-z]/.test(last) &&
    !NO_UNDOUBLE.has(last)
  ) {
    return stem.slice(0, -1);
  }
  return stem;
}

/**
 * A light, conservative stemmer (plurals, -ed, -ing, -ly, final -e) so "declines", "declined", "declining" and
 * "decline" share one key. Word lists are stemmed with the same function, so only consistency matters, not
 * linguistic accuracy; a full Porter stemmer would over-merge finance terms ("general"/"generate").
 */
export function stem(word: string): string {
  let w = word.replace(/'s$/, "");
  if (w.length <= 3 || !/^[a-z']+$/.test(w)) return w;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);

  if (w.endsWith("ied") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("ed") && w.length > 4) w = undouble(w.slice(0, -2));
  else if (w.endsWith("ing") && w.length > 5) w = undouble(w.slice(0, -3));
  else if (w.endsWith("ly") && w.length > 5) w = w.slice(0, -2);

  if (w.endsWith("e") && w.length > 3 && !w.endsWith("ee")) w = w.slice(0, -1);
  return w;
}

/** Function words ignored by the summary's similarity measure. */
export const STOP_WORDS = new Set(
  (
    "a about above after again against all also am an and any are as at be because been before being below between both " +
    "but by can could did do does doing down during each few for from further had has have having he her here hers him his " +
    "how i if in into is it its itself just let me more most my no nor not now of off on once only or other our ours " +
    "ourselves out over own same she should so some such than that the their theirs them then there these they this those " +
    "through to too under until up very was we were what when where which while who whom why will with would you your " +
    "yours yes okay ok well really think know going get got see like um uh also just thank thanks"
  ).split(" "),
);

/**
 * Sentences that run the call rather than say anything about the business: greetings, hand-overs, queue
 * instructions, the safe-harbor boilerplate. They score 0 and never enter the summary.
 */
const PROCEDURAL_PATTERNS: RegExp[] = [
  /^(?:[Tt]hank you|[Tt]hanks)(?: very much)?(?: for (?:taking|joining|the question)[^.!?]*)?[,.!]?\s*(?:[A-Z][a-z]+(?: [A-Z][a-z]+)?)?[,.!]*$/,
  /^(thank you|thanks)[,.!]?\s*(operator|everyone|all)?[,.!]?\s*(and\s+)?(good (morning|afternoon|evening)( everyone| all)?)?[.!]?$/i,
  /^good (morning|afternoon|evening)\b/i,
  /\b(welcome|welcoming) (you )?to (the|our|today's)\b/i,
  /\bconference (call )?is being recorded\b/i,
  /\bthis call is being recorded\b/i,
  /\b(press|pressing) (star|the star|\*)/i,
  /\bquestion[- ]and[- ]answer session\b/i,
  /\b(our|the) (next|first|last|final) question (comes|is coming|will come) from\b/i,
  /\b(next|first|last|final) question\b.*\bfrom\b/i,
  /\byour line is (now )?open\b/i,
  /\bplease go ahead\b/i,
  /\b(i|i'd like to|let me|i will|i'll)\b.*\b(turn|hand) (the call|it|things)? ?(back )?over to\b/i,
  /\bturn the (call|conference) (back )?over\b/i,
  /\bforward[- ]looking statements?\b/i,
  /\bsafe harbor\b/i,
  /\bnon[- ]gaap (financial )?measures?\b.*\breconciliation\b/i,
  /\b(that|this) concludes\b/i,
  /\byou may (now )?disconnect\b/i,
  /\b(we have )?no (further|more) questions\b/i,
  /\bhold for (the|your) next question\b/i,
  /^(hi|hello|hey|good morning|good afternoon)[,!.]?\s*[A-Z]?[a-z]*[.!]?$/i,
  /^(sure|yes|yeah|okay|ok|great|got it|understood|perfect)[,.!]*$/i,
  /^(great|good|okay|ok|perfect|all right|alright|got it|understood|that's helpful|very helpful|helpful)[,.!]?\s*(thank you|thanks)( very much| so much)?[,.!]*$/i,
];

export function isProcedural(sentence: string): boolean {
  const trimmed = sentence.trim();
  if (trimmed === "") return true;
  return PROCEDURAL_PATTERNS.some((pattern) => pattern.test(trimmed));
}
