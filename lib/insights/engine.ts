/**
 * A call's insights from its transcript and context, recomputed as sentences arrive. The engine caches each
 * sentence's figures and changes by sequence (and text: enrichment may rewrite a sentence), so a new sentence costs
 * its own extraction and one BM25 lookup, not a pass over the whole call. The browser runs one engine per call room
 * over the transcript the stream keeps current; the server runs the same code for the API.
 */
import type { Change, Figure, Insights, InsightsContext, Qa } from "@/lib/schemas/insights";
import {
  droppedTopics,
  newTopics,
  PreviousCallIndex,
  sentenceChanges,
  type ComparableSentence,
} from "./changes";
import { readCallFacts, type CallFacts } from "./call-facts";
import { calibrate } from "./calibration";
import { compareWithConsensus } from "./consensus";
import { extractFigures, isFact, PAST_RESULT, type SentenceContext } from "./figures";
import { namesTheYear } from "./figure-period";
import { forwardCues, horizonOf } from "./guidance";
import { segmentHeading } from "./segments";
import { QaTracker } from "./qa";
import { isOperator, type TranscriptParticipant, type TranscriptSentence } from "./sentence";

export interface InsightsInput {
  sentences: readonly TranscriptSentence[];
  participants?: readonly TranscriptParticipant[];
  /** The call is over: topics the previous call had and this one never raised count as dropped. */
  isComplete: boolean;
}

interface Cached<T> {
  text: string;
  value: T;
}

export class InsightsEngine {
  private readonly previous: PreviousCallIndex | null;
  private readonly figureCache = new Map<
    number,
    Cached<Figure[]> & { context: SentenceContext; sentence: string }
  >();
  private readonly changeCache = new Map<number, Cached<Change[]>>();
  private readonly previousSegments: Set<string>;
  private facts: SentenceContext | null = null;
  private factsFrom = 0;
  private qaTracker: QaTracker | null = null;
  /** The sentences the Q&A tracker has read, in order: a new step reads only those after them. */
  private qaRead: TranscriptSentence[] = [];
  private qaParticipants = "";

  constructor(private readonly context: InsightsContext | null) {
    const prev = context?.previousCall;
    this.previous = prev && prev.segments.length > 0 ? new PreviousCallIndex(prev.segments) : null;
    this.previousSegments = new Set(
      this.previous?.figures.flat().flatMap((f) => (f.segment ? [f.segment] : [])) ?? [],
    );
  }

  /** Read from the opening while it lasts, then kept: later sentences do not change what the call is. */
  private callContext(sentences: readonly TranscriptSentence[]): SentenceContext {
    if (this.facts === null || (this.factsFrom < 60 && sentences.length !== this.factsFrom)) {
      this.facts = callContextOf(this.context, readCallFacts(sentences));
      this.factsFrom = Math.min(60, sentences.length);
    }
    return this.facts;
  }

  figuresOf(s: TranscriptSentence, context: SentenceContext = {}): Figure[] {
    const hit = this.figureCache.get(s.sequence);
    // The same context object and text as the last step: the common case, decided without building the key.
    if (hit && hit.context === context && hit.sentence === s.text) return hit.value;
    const key = `${contextKey(context)}|${s.text}`;
    if (hit && hit.text === key) {
      hit.context = context;
      hit.sentence = s.text;
      return hit.value;
    }
    const value = extractFigures(s, context);
    this.figureCache.set(s.sequence, { text: key, value, context, sentence: s.text });
    return value;
  }

  private changesOf(s: ComparableSentence, figures: Figure[]): Change[] {
    if (!this.previous) return [];
    const hit = this.changeCache.get(s.sequence);
    if (hit && hit.text === s.text) return hit.value;
    const value = sentenceChanges(s, figures, this.previous);
    this.changeCache.set(s.sequence, { text: s.text, value });
    return value;
  }

  /**
   * The Q&A and speakers, reading only the sentences added since the last step. A rewritten sentence (enrichment
   * names the voices) or new participants start the reading over.
   */
  private qaOf(
    sentences: readonly TranscriptSentence[],
    participants: readonly TranscriptParticipant[] = [],
  ): Qa {
    const key = JSON.stringify(participants);
    if (this.qaTracker === null || key !== this.qaParticipants || !isPrefix(this.qaRead, sentences)) {
      this.qaTracker = new QaTracker(participants);
      this.qaRead = [];
      this.qaParticipants = key;
    }
    for (let i = this.qaRead.length; i < sentences.length; i++) {
      this.qaTracker.add(sentences[i]!);
      this.qaRead.push(sentences[i]!);
    }
    return this.qaTracker.result();
  }

  compute(input: InsightsInput): Insights {
    const qa = this.qaOf(input.sentences, input.participants);
    // Analysts restate and probe the company's figures; only what management says is the company's word.
    const analysts = new Set(qa.turns.flatMap((t) => (t.speaker ? [t.speaker] : [])));
    const company = input.sentences.filter((s) => !isOperator(s) && !analysts.has(s.speaker));
    const figures: Figure[] = [];
    const changes: Change[] = [];
    const segmentsNow = new Map<string, ComparableSentence>();
    const seenChanges = new Set<string>();
    // What a speaker's earlier sentences set up: the outlook's horizon, the segment under discussion.
    const fiscal = this.callContext(input.sentences);
    let context: SentenceContext = fiscal;
    let contextSpeaker: string | null = null;
    for (const s of company) {
      if (s.speaker !== contextSpeaker) {
        context = fiscal;
        contextSpeaker = s.speaker;
      }
      const own = this.figuresOf(s, context);
      context = nextContext(context, s.text, own);
      figures.push(...own);
      for (const f of own)
        if (f.segment && isFact(f) && !segmentsNow.has(f.segment)) segmentsNow.set(f.segment, s);
      for (const c of this.changesOf(s, own)) {
        // The same move said twice ("revenue was …" in the remarks and again in the financial review) is one change.
        const key = c.metric === null ? c.id : `${c.kind}|${c.metric}|${c.topic}|${c.before}|${c.after}`;
        if (seenChanges.has(key)) continue;
        seenChanges.add(key);
        changes.push(c);
      }
    }
    if (this.previous) {
      changes.push(...newTopics(company, this.previous, this.previousSegments, segmentsNow));
      if (input.isComplete) changes.push(...droppedTopics(company, this.previous));
    }
    changes.sort((a, b) => (a.sequence ?? Infinity) - (b.sequence ?? Infinity));
    const textBySequence = new Map(company.map((s) => [s.sequence, s.text]));
    return {
      figures: compareWithConsensus(calibrate(figures, qa.qaStartSequence), this.context?.consensus ?? null, {
        textOf: (sequence) => textBySequence.get(sequence),
        fiscalQuarter: fiscal.fiscalQuarter ?? null,
        fiscalYear: fiscal.fiscalYear ?? null,
        qaStartSequence: qa.qaStartSequence,
      }),
      changes,
      qa,
    };
  }
}

const sameSentence = (a: TranscriptSentence, b: TranscriptSentence) =>
  a === b ||
  (a.sequence === b.sequence &&
    a.speaker === b.speaker &&
    (a.speakerName ?? null) === (b.speakerName ?? null) &&
    a.text === b.text &&
    a.startMs === b.startMs &&
    a.endMs === b.endMs &&
    (a.sentiment ?? null) === (b.sentiment ?? null));

/** `read` is where `sentences` starts: nothing read has changed since. */
function isPrefix(read: readonly TranscriptSentence[], sentences: readonly TranscriptSentence[]): boolean {
  if (read.length > sentences.length) return false;
  for (let i = 0; i < read.length; i++) if (!sameSentence(read[i]!, sentences[i]!)) return false;
  return true;
}

/** The call's fiscal quarter, from the context's `call` (else the calendar's record of the call's quarter). */
function fiscalOf(context: InsightsContext | null): SentenceContext {
  const period = context?.call?.period ?? context?.consensus.current?.period ?? null;
  const year = context?.call?.year ?? context?.consensus.current?.periodYear ?? null;
  const quarter = period ? /^Q([1-4])$/i.exec(period.trim())?.[1] : undefined;
  return { fiscalYear: year, fiscalQuarter: quarter ? Number(quarter) : null };
}

/** The call's own facts over its metadata: the quarter the call names, the company's name. */
function callContextOf(context: InsightsContext | null, facts: CallFacts): SentenceContext {
  const listed = fiscalOf(context);
  const named = facts.fiscalYear !== null && facts.fiscalQuarter !== null;
  return {
    fiscalYear: named ? facts.fiscalYear : listed.fiscalYear,
    fiscalQuarter: named ? facts.fiscalQuarter : listed.fiscalQuarter,
    company: facts.company,
  };
}

/**
 * The context a sentence leaves for the next one of the same speaker: the outlook's horizon and whether an outlook
 * is being gone through, the segment under discussion, whether the year's results are.
 */
interface TextFacts {
  forward: boolean;
  horizon: ReturnType<typeof horizonOf>;
  result: boolean;
  heading: string | "" | undefined;
  total: boolean;
  yearResults: boolean;
  quarter: boolean;
}

// The engine reruns the context over the whole transcript on each new sentence: what a text says is read once.
const textMemo = new Map<string, TextFacts>();
const TEXT_MEMO_MAX = 20_000;

function textFacts(text: string): TextFacts {
  const hit = textMemo.get(text);
  if (hit) return hit;
  const forward = forwardCues(text).length > 0;
  const facts: TextFacts = {
    forward,
    horizon: forward ? horizonOf(text) : null,
    result: PAST_RESULT.test(text) || /\?\s*$/.test(text),
    heading: segmentHeading(text),
    total: /\b(?:total|consolidated)\b/i.test(text),
    yearResults:
      !forward &&
      /\b(?:for the (?:full |fiscal )?year|year as a whole|full[- ]year results|for fiscal (?:year )?20\d\d)\b/i.test(
        text,
      ),
    quarter: /\bquarter\b/i.test(text),
  };
  if (textMemo.size >= TEXT_MEMO_MAX) textMemo.clear();
  textMemo.set(text, facts);
  return facts;
}

function nextContext(context: SentenceContext, text: string, figures: readonly Figure[]): SentenceContext {
  let { horizon = null, segment = null, outlook = false, yearResults = false, segmentAge = 0 } = context;
  const facts = textFacts(text);
  if (facts.forward) horizon = facts.horizon ?? horizon;
  // An outlook goes on while sentences state guidance (or nothing that happened); a result or a question ends it.
  if (figures.some((f) => f.isGuidance && isFact(f))) outlook = true;
  else if (facts.result) outlook = false;
  // A part named (a heading, or a part's own figure) is what the next sentences are likely about.
  const partFigure = figures.find((f) => f.segment !== null && isFact(f));
  segmentAge++;
  if (facts.heading !== undefined) {
    segment = facts.heading || null;
    segmentAge = 0;
  } else if (partFigure) {
    segment = partFigure.segment;
    segmentAge = 0;
  } else if (facts.total && figures.some((f) => f.segment === null && isFact(f))) segment = null;
  // A part's discussion runs a few sentences, not the rest of the turn.
  if (segmentAge > 6) segment = null;
  // On a fourth-quarter call, "revenue grew 25% over 2018" opens the year's results as "for the full year" does.
  if (facts.yearResults || (!facts.forward && namesTheYear(text, context))) yearResults = true;
  else if (facts.quarter) yearResults = false;
  if (
    horizon === context.horizon &&
    segment === context.segment &&
    segmentAge === context.segmentAge &&
    outlook === (context.outlook ?? false) &&
    yearResults === (context.yearResults ?? false)
  )
    return context;
  return { ...context, horizon, segment, outlook, yearResults, segmentAge };
}

const contextKey = (c: SentenceContext) =>
  [
    c.horizon,
    c.segment,
    c.fiscalYear,
    c.fiscalQuarter,
    c.outlook ? 1 : 0,
    c.yearResults ? 1 : 0,
    [...(c.company ?? [])].join(" "),
  ].join("|");

/** One-shot form of the engine (the API, tests). */
export function computeInsights(input: InsightsInput, context: InsightsContext | null): Insights {
  return new InsightsEngine(context).compute(input);
}
