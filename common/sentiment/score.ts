/**
 * Dictionary sentiment for earnings-call speech, in the style of Loughran–McDonald: finance word lists
 * (lexicon.ts) matched on light stems, finance phrases that win over their single words, numeric direction cues
 * ("up 12%", "decreased $0.03", inverted for costs), negation (a negator within the 3 preceding words flips a hit)
 * and intensifiers/diminishers. A sentence scores (pos − neg) / (pos + neg + K): 0 without evidence, approaching
 * ±1 smoothly as one-sided evidence piles up, never reaching it. Deterministic: no randomness, no models.
 *
 * Pure TypeScript (no Node APIs), so the same scorer runs in the embedded service's enrichment, in the live bus
 * (every live sentence as it is published) and, if ever needed, in the browser.
 */
import {
  COST_WORDS,
  DOWN_WORDS,
  FIGURE_ONLY_WORDS,
  INTENSIFIERS,
  LITIGIOUS_WORDS,
  NEGATIVE_WORDS,
  NEUTRAL_SURFACE_FORMS,
  PHRASES,
  POSITIVE_WORDS,
  UNCERTAINTY_WORDS,
  UP_WORDS,
  isNegator,
  type LexiconCategory,
} from "./lexicon";
import { BOUNDARY, isNumberToken, isProcedural, percentOf, splitSentences, stem, tokenize } from "./text";

/** Squashing constant: one plain positive word scores 0.5, two score 0.67, an intensified phrase ~0.75. */
const SQUASH_K = 1;
const NEGATION_WINDOW = 3;
/** "Not bad" is weaker praise than "good": a negated negative flips at half weight. */
const LITOTES_FACTOR = 0.5;
/** Uncertainty and legal words lean negative but are weaker evidence than outright negative words. */
const CATEGORY_WEIGHT: Record<LexiconCategory, number> = {
  positive: 1,
  negative: 1,
  uncertainty: 0.5,
  litigious: 0.5,
};
const DIRECTION_WEIGHT_NO_FIGURE = 0.75;
const DIRECTION_WEIGHT_FIGURE = 1;
const DIRECTION_WEIGHT_LARGE_FIGURE = 1.5;
const LARGE_MOVE_PERCENT = 10;
/** Words that end a negation or intensifier scope in addition to punctuation ("not great, but improving"). */
const SCOPE_BREAKERS = new Set(["but", "although", "though", "however", "yet", "whereas", "while"]);

interface CompiledPhrase {
  slots: Set<string>[];
  maxGap: number;
  weight: number;
  category: LexiconCategory;
}

const stemSet = (list: Iterable<string>): Set<string> => new Set([...list].map(stem));

const LEXICON: Map<string, LexiconCategory> = (() => {
  const map = new Map<string, LexiconCategory>();
  const add = (list: string[], category: LexiconCategory) => {
    for (const word of list) {
      const key = stem(word);
      const existing = map.get(key);
      if (existing !== undefined && existing !== category) {
        throw new Error(`sentiment lexicon: "${word}" is both ${existing} and ${category}`);
      }
      map.set(key, category);
    }
  };
  add(POSITIVE_WORDS, "positive");
  add(NEGATIVE_WORDS, "negative");
  add(UNCERTAINTY_WORDS, "uncertainty");
  add(LITIGIOUS_WORDS, "litigious");
  return map;
})();

const UP = stemSet(UP_WORDS);
const DOWN = stemSet(DOWN_WORDS);
const FIGURE_ONLY = stemSet(FIGURE_ONLY_WORDS);
const COSTS = stemSet(COST_WORDS);

// Longer phrases first so "goodwill impairment" is taken before the plain word "impairment".
const COMPILED_PHRASES: CompiledPhrase[] = PHRASES.map((def) => ({
  slots: def.slots.map((slot) => stemSet(slot)),
  maxGap: def.maxGap,
  weight: def.weight,
  category: def.category,
})).sort((a, b) => b.slots.length - a.slots.length || b.weight - a.weight);

export interface SentimentHit {
  /** The matched words as spoken (lower case). */
  text: string;
  category: LexiconCategory;
  /** +1 counts as positive evidence, −1 as negative, after negation. */
  polarity: 1 | -1;
  weight: number;
  negated: boolean;
}

export interface SentenceSentiment {
  /** In (−1, 1); exactly 0 when there is no evidence or the sentence is procedural. */
  score: number;
  positive: number;
  negative: number;
  /** Total evidence weight (positive + negative): how much the score should count when averaged. */
  evidence: number;
  hits: SentimentHit[];
}

const NEUTRAL: SentenceSentiment = { score: 0, positive: 0, negative: 0, evidence: 0, hits: [] };

const isBreak = (token: string | undefined): boolean =>
  token === undefined || token === BOUNDARY || SCOPE_BREAKERS.has(token);

function matchPhrase(stems: string[], start: number, compiled: CompiledPhrase): number | null {
  if (!compiled.slots[0]?.has(stems[start] ?? "")) return null;
  let position = start;
  for (let slot = 1; slot < compiled.slots.length; slot += 1) {
    const wanted = compiled.slots[slot];
    let found = -1;
    for (let next = position + 1; next <= position + 1 + compiled.maxGap && next < stems.length; next += 1) {
      if (isBreak(stems[next])) break;
      if (wanted?.has(stems[next] ?? "")) {
        found = next;
        break;
      }
    }
    if (found < 0) return null;
    position = found;
  }
  return position;
}

/** Percentage or amount within reach of a direction word: "up 12%", "a 12% increase", "grew 8 percent". */
function figureNear(tokens: string[], index: number): { present: boolean; percent: number | null } {
  let percent: number | null = null;
  let present = false;
  const look = (at: number) => {
    const token = tokens[at];
    if (token === undefined || !isNumberToken(token)) return;
    present = true;
    const direct = percentOf(token);
    const spelled = tokens[at + 1] === "percent" ? Number(token.replace(/[$,]/g, "")) : null;
    percent ??= direct ?? spelled;
  };
  for (let at = index + 1; at <= index + 4 && !isBreak(tokens[at]); at += 1) look(at);
  for (let at = index - 1; at >= index - 2 && !isBreak(tokens[at]); at -= 1) look(at);
  return { present, percent };
}

/** "Operating expenses decreased", "an increase in costs": a move in a cost is the opposite news. */
function hasCostSubject(stems: string[], index: number): boolean {
  for (let at = index - 1; at >= index - 4 && !isBreak(stems[at]); at -= 1) {
    if (COSTS.has(stems[at] ?? "")) return true;
  }
  if (stems[index + 1] === "in" || stems[index + 1] === "of") {
    for (let at = index + 2; at <= index + 4 && !isBreak(stems[at]); at += 1) {
      if (COSTS.has(stems[at] ?? "")) return true;
    }
  }
  return false;
}

function modifierFor(tokens: string[], start: number, end: number): number {
  for (let at = start - 1; at >= start - 2 && !isBreak(tokens[at]); at -= 1) {
    const factor = INTENSIFIERS.get(tokens[at] ?? "");
    if (factor !== undefined) return factor;
  }
  // Adverbs often follow the verb in speech: "revenue grew sharply".
  return INTENSIFIERS.get(tokens[end + 1] ?? "") ?? 1;
}

function isNegated(tokens: string[], start: number): boolean {
  for (let at = start - 1; at >= start - NEGATION_WINDOW && !isBreak(tokens[at]); at -= 1) {
    const token = tokens[at] ?? "";
    // "not only strong but…" is emphasis, not negation.
    if (isNegator(token) && tokens[at + 1] !== "only") return true;
  }
  return false;
}

/** Scores one sentence; see the module comment for the model. */
export function scoreSentence(sentence: string): SentenceSentiment {
  if (isProcedural(sentence)) return NEUTRAL;
  const tokens = tokenize(sentence);
  const stems = tokens.map((token) => (token === BOUNDARY ? token : stem(token)));
  const consumed = new Array<boolean>(tokens.length).fill(false);
  const raw: { start: number; end: number; category: LexiconCategory; polarity: 1 | -1; weight: number }[] =
    [];

  const polarityOf = (category: LexiconCategory): 1 | -1 => (category === "positive" ? 1 : -1);

  for (let start = 0; start < tokens.length; start += 1) {
    for (const compiled of COMPILED_PHRASES) {
      if (consumed[start]) break;
      const end = matchPhrase(stems, start, compiled);
      if (end === null) continue;
      if (consumed.slice(start, end + 1).some(Boolean)) continue;
      consumed.fill(true, start, end + 1);
      if (compiled.weight > 0) {
        raw.push({
          start,
          end,
          category: compiled.category,
          polarity: polarityOf(compiled.category),
          weight: compiled.weight,
        });
      }
    }
  }

  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index] ?? "";
    const key = stems[index] ?? "";
    if (consumed[index] || token === BOUNDARY || NEUTRAL_SURFACE_FORMS.has(token) || INTENSIFIERS.has(token))
      continue;
    if (UP.has(key) || DOWN.has(key)) {
      const figure = figureNear(tokens, index);
      if (!figure.present && FIGURE_ONLY.has(key)) continue;
      let weight = DIRECTION_WEIGHT_NO_FIGURE;
      if (figure.present) {
        weight =
          figure.percent !== null && figure.percent >= LARGE_MOVE_PERCENT
            ? DIRECTION_WEIGHT_LARGE_FIGURE
            : DIRECTION_WEIGHT_FIGURE;
      }
      let polarity: 1 | -1 = UP.has(key) ? 1 : -1;
      if (hasCostSubject(stems, index)) polarity = polarity === 1 ? -1 : 1;
      raw.push({
        start: index,
        end: index,
        category: polarity === 1 ? "positive" : "negative",
        polarity,
        weight,
      });
      continue;
    }
    const category = LEXICON.get(key);
    if (category === undefined) continue;
    raw.push({
      start: index,
      end: index,
      category,
      polarity: polarityOf(category),
      weight: CATEGORY_WEIGHT[category],
    });
  }

  if (raw.length === 0) return NEUTRAL;
  let positive = 0;
  let negative = 0;
  const hits: SentimentHit[] = [];
  for (const hit of raw.sort((a, b) => a.start - b.start)) {
    const negated = isNegated(tokens, hit.start);
    let weight = hit.weight * modifierFor(tokens, hit.start, hit.end);
    let polarity = hit.polarity;
    if (negated) {
      if (polarity === -1) weight *= LITOTES_FACTOR;
      polarity = polarity === 1 ? -1 : 1;
    }
    if (polarity === 1) positive += weight;
    else negative += weight;
    hits.push({
      text: tokens.slice(hit.start, hit.end + 1).join(" "),
      category: hit.category,
      polarity,
      weight,
      negated,
    });
  }
  const evidence = positive + negative;
  return { score: (positive - negative) / (evidence + SQUASH_K), positive, negative, evidence, hits };
}

/**
 * A segment may hold several sentences: its score is the evidence-weighted mean of theirs, so one strong sentence
 * is not diluted by a procedural one beside it.
 */
export function scoreText(text: string): SentenceSentiment {
  const sentences = splitSentences(text).map(scoreSentence);
  const evidence = sentences.reduce((sum, s) => sum + s.evidence, 0);
  if (evidence === 0) return NEUTRAL;
  return {
    score: sentences.reduce((sum, s) => sum + s.score * s.evidence, 0) / evidence,
    positive: sentences.reduce((sum, s) => sum + s.positive, 0),
    negative: sentences.reduce((sum, s) => sum + s.negative, 0),
    evidence,
    hits: sentences.flatMap((s) => s.hits),
  };
}

/** Who speaks a line (the enrichment's participant roles). */
export type ParticipantRole = "Operator" | "Executive" | "Analyst";

export interface ScoredSegment {
  role: ParticipantRole | null;
  sentiment: SentenceSentiment;
}

/**
 * How much each kind of line counts towards the call's overall sentiment: management's prepared remarks carry the
 * message, answers almost as much; analysts' questions mostly echo or probe, and the operator only runs the call.
 */
export const ROLE_WEIGHTS = {
  preparedRemarks: 1.25,
  executiveAnswer: 1,
  analyst: 0.4,
  unknown: 0.5,
  operator: 0,
} as const;
/** Evidence beyond this many weighted hits does not make a segment count more (one long monologue ≠ the call). */
const EVIDENCE_CAP = 3;
/** Pulls the overall score towards 0 when the whole call holds almost no evidence. */
const OVERALL_PRIOR = 1;

/**
 * Overall call sentiment: Σ wᵢ·sᵢ / (Σ wᵢ + prior), where wᵢ = role weight × min(evidenceᵢ, cap). Executive lines
 * before the first analyst line are the prepared remarks. A weighted mean of values in [−1, 1] stays in it.
 */
export function overallSentiment(segments: ScoredSegment[]): number {
  let weighted = 0;
  let total = 0;
  let seenAnalyst = false;
  for (const { role, sentiment } of segments) {
    if (role === "Analyst") seenAnalyst = true;
    let roleWeight: number;
    if (role === "Executive")
      roleWeight = seenAnalyst ? ROLE_WEIGHTS.executiveAnswer : ROLE_WEIGHTS.preparedRemarks;
    else if (role === "Analyst") roleWeight = ROLE_WEIGHTS.analyst;
    else if (role === "Operator") roleWeight = ROLE_WEIGHTS.operator;
    else roleWeight = ROLE_WEIGHTS.unknown;
    const weight = roleWeight * Math.min(sentiment.evidence, EVIDENCE_CAP);
    weighted += weight * sentiment.score;
    total += weight;
  }
  return total === 0 ? 0 : weighted / (total + OVERALL_PRIOR);
}
