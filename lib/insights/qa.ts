/**
 * The Q&A's structure from the transcript as it grows: where the prepared remarks end, each analyst's turn (from the
 * operator's introduction: "Our next question comes from Jane Doe with Morgan Stanley."), who answered, how long
 * and in what tone, and each speaker's mean sentiment. Live speakers are diarization labels; once enrichment names
 * them, the names (and the participants' firms) take over.
 */
import type { Qa, QaTurn, SpeakerRole, SpeakerSentiment } from "@/lib/schemas/insights";
import { isOperator, type TranscriptParticipant, type TranscriptSentence } from "./sentence";
import { parseIntro } from "./intros";
import { SpeakerNamer, type SpeakerName } from "./speakers";

const QA_START =
  /\b(?:(?:begin|start|open|move to|turn to|now (?:take|go to)) (?:the |our )?(?:question-and-answer|question and answer|Q&A)|open (?:up )?the (?:line|lines|floor|call) (?:up )?(?:for|to) questions|(?:first|our first) question (?:comes|is coming|will come|is from)|take (?:our|the) first question)\b/i;
/**
 * An announcement of the Q&A in the call's agenda, not its start: "After the speakers' presentation, there will be a
 * question-and-answer session.", "Following our prepared remarks, we'll open the call for questions.", "I will then
 * provide closing comments and open the call to questions.", "Before we open the line for questions, I'll wrap up…".
 */
const QA_ANNOUNCED =
  /\bthere will be\b|\b(?:after|following|once)\b.{0,80}\b(?:remarks|comments|presentation|review|introduction|overview)\b|\bbefore (?:we|I)\b|\b(?:will|we'll|I'll) then\b|\blater\b|\bat the end\b/i;

const ONE_LINE = 160;

/** The question itself: the first sentence that asks, without the pleasantries before it, cut to one line. */
function oneLine(text: string): string {
  const clean = text.replace(/\s+/g, " ").trim();
  const asked = clean.split(/(?<=[.!?])\s+(?=[A-Z"“])/).find((s) => s.endsWith("?"));
  const t = asked ?? clean;
  return t.length <= ONE_LINE ? t : `${t.slice(0, ONE_LINE - 1).trimEnd()}…`;
}

const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

const opensMemo = new Map<string, boolean>();
/** The sentence opens the Q&A (memoised: a call's text is read again when a call room reopens it). */
function opensQa(text: string): boolean {
  let opens = opensMemo.get(text);
  if (opens === undefined) {
    opens = QA_START.test(text) && !QA_ANNOUNCED.test(text);
    if (opensMemo.size >= 20_000) opensMemo.clear();
    opensMemo.set(text, opens);
  }
  return opens;
}

const STAND_IN =
  /\b(?:[Tt]his is|[Ii]t's|I'm|I am)\s+(?:actually\s+)?([A-Z][\w'’-]+(?:\s+[A-Z]\.)?(?:\s+[A-Z][\w'’-]+){1,2})\s+(?:on for|on behalf of|sitting in for|filling in for|in for|dialing in for|with|from)\b/;

/** An unintroduced voice in the Q&A that asks is an analyst; one that does not is management joining in. */
const ASKS =
  /\?\s*$|\b(?:my (?:first |next |last )?question|a follow-up|follow up on|I (?:was )?wonder(?:ing)?|can you (?:talk|give|help|comment|provide|elaborate)|could you (?:talk|give|help|comment|provide|elaborate))\b/i;

/** A turn as it grows: the turn's fields, and what its finished form needs from its sentences, kept as they arrive. */
interface Building {
  turn: QaTurn;
  questionCount: number;
  /** The first question sentence that asks (ends with "?"), else the first one. */
  asked: TranscriptSentence | null;
  /** Enrichment's name for the analyst's voice, from the first question sentence carrying one. */
  named: string | null;
  /** "This is Brian Biros on for Kathryn", from the first four question sentences. */
  standIn: string | null;
  /** Each distinct voice that answered, in order: its enriched name (or null) and its label. */
  answerVoices: { speakerName: string | null; speaker: string }[];
  answerCount: number;
  answerWords: number;
  answerFirstStartMs: number;
  answerLastEndMs: number;
  sentiment: Mean;
}

/** A running mean over finite values, in the order they come (so it equals `mean` over the same list). */
interface Mean {
  sum: number;
  n: number;
}
const addTo = (m: Mean, v: number | null | undefined) => {
  if (typeof v === "number" && Number.isFinite(v)) {
    m.sum += v;
    m.n++;
  }
};
const meanOf = (m: Mean) => (m.n === 0 ? null : Math.round((m.sum / m.n) * 1000) / 1000);

interface VoiceGroup {
  first: TranscriptSentence;
  enriched: string | null;
  count: number;
  sentiment: Mean;
}

/**
 * The Q&A read one sentence at a time (`add`), so a live call pays for its new sentence only; `result()` is the
 * reading so far. Sentences come in order of `sequence`; the participants are fixed for the tracker's life.
 */
export class QaTracker {
  private readonly namer = new SpeakerNamer();
  private readonly analystsByRole: Set<string>;
  private readonly byName: Map<string, TranscriptParticipant>;
  private qaStartSequence: number | null = null;
  private othersSpoke = false;
  private readonly management = new Set<string>();
  private readonly analysts = new Set<string>();
  private readonly turns: Building[] = [];
  private current: Building | null = null;
  private readonly voices = new Map<string, VoiceGroup>();

  constructor(readonly participants: readonly TranscriptParticipant[] = []) {
    this.analystsByRole = new Set(
      participants.filter((p) => /analyst/i.test(p.role ?? "")).map((p) => p.name.toLowerCase()),
    );
    this.byName = new Map(participants.map((p) => [p.name.toLowerCase(), p]));
  }

  add(s: TranscriptSentence): void {
    this.namer.add(s);
    this.addVoice(s);
    // The Q&A starts where it is opened, or at the operator's first introduction of an analyst. The operator's words
    // before anyone else spoke are the agenda ("Management will give an overview and open the call for questions").
    if (
      this.qaStartSequence === null &&
      ((opensQa(s.text) && (this.othersSpoke || !isOperator(s))) ||
        (isOperator(s) && parseIntro(s.text) !== null))
    )
      this.qaStartSequence = s.sequence;
    if (!isOperator(s)) this.othersSpoke = true;
    const inQa = this.qaStartSequence !== null && s.sequence >= this.qaStartSequence;
    const { management, analysts } = this;
    if (isOperator(s)) {
      const intro = inQa ? parseIntro(s.text) : null;
      if (intro) {
        this.current = newTurn(s, intro.analyst, intro.firm);
        this.turns.push(this.current);
      }
      return;
    }
    if (!inQa) {
      management.add(s.speaker);
      return;
    }
    let current = this.current;
    const enrichedAnalyst = s.speakerName ? this.analystsByRole.has(s.speakerName.toLowerCase()) : false;
    if (current && current.turn.speaker === null && !management.has(s.speaker)) {
      // The first voice after an introduction is the analyst introduced.
      current.turn.speaker = s.speaker;
      analysts.add(s.speaker);
    } else if (
      !management.has(s.speaker) &&
      s.speaker !== current?.turn.speaker &&
      (current === null || current.answerCount > 0) &&
      (analysts.has(s.speaker) || enrichedAnalyst || ASKS.test(s.text))
    ) {
      // An analyst the operator did not introduce (or whose introduction was missed): a turn of its own.
      current = this.current = newTurn(s, null, null);
      current.turn.speaker = s.speaker;
      analysts.add(s.speaker);
      this.turns.push(current);
    } else if (!analysts.has(s.speaker) && s.speaker !== current?.turn.speaker) {
      // A voice that answers without having been introduced: an executive joining the Q&A.
      management.add(s.speaker);
    }
    if (!current) return;
    if (s.speaker === current.turn.speaker) addQuestion(current, s);
    else addAnswer(current, s);
  }

  private addVoice(s: TranscriptSentence): void {
    let group = this.voices.get(s.speaker);
    if (!group) {
      group = { first: s, enriched: null, count: 0, sentiment: { sum: 0, n: 0 } };
      this.voices.set(s.speaker, group);
    }
    if (group.enriched === null && s.speakerName) group.enriched = s.speakerName;
    group.count++;
    addTo(group.sentiment, s.sentiment);
  }

  result(): Qa {
    const names = this.namer.names();
    const nameOf = (label: string) => names.get(label)?.name ?? null;
    const finished = this.turns.map((t) => finishTurn(t, this.byName, nameOf));
    return {
      qaStartSequence: this.qaStartSequence,
      turns: finished,
      speakers: this.speakerSentiments(finished, names),
    };
  }

  private speakerSentiments(turns: readonly QaTurn[], names: Map<string, SpeakerName>): SpeakerSentiment[] {
    const analysts = new Map<string, QaTurn>();
    for (const t of turns) if (t.speaker) analysts.set(t.speaker, t);
    const out: SpeakerSentiment[] = [];
    for (const [speaker, group] of this.voices) {
      const turn = analysts.get(speaker);
      const enriched = group.enriched;
      const inferred = names.get(speaker) ?? null;
      const operator = isOperator(group.first);
      const name = enriched ?? (inferred && !operator ? inferred.name : null) ?? turn?.analyst ?? null;
      const participant = name ? this.byName.get(name.toLowerCase()) : undefined;
      const role: SpeakerRole = operator
        ? "operator"
        : turn || (!this.management.has(speaker) && /analyst/i.test(participant?.role ?? ""))
          ? "analyst"
          : "management";
      out.push({
        speaker,
        name,
        nameInferred: name !== null && enriched === null,
        role,
        firm: participant?.organization ?? turn?.firm ?? null,
        sentences: group.count,
        sentiment: role === "operator" ? null : meanOf(group.sentiment),
      });
    }
    return out;
  }
}

/** One-shot form of `QaTracker` over a whole transcript. */
export function detectQa(
  sentences: readonly TranscriptSentence[],
  participants: readonly TranscriptParticipant[] = [],
): Qa {
  const tracker = new QaTracker(participants);
  for (const s of sentences) tracker.add(s);
  return tracker.result();
}

function newTurn(s: TranscriptSentence, analyst: string | null, firm: string | null): Building {
  return {
    turn: {
      sequence: s.sequence,
      startMs: s.startMs,
      analyst,
      firm,
      speaker: null,
      question: null,
      questionSequence: null,
      answeredBy: [],
      answerSentences: 0,
      answerWords: 0,
      answerMs: 0,
      answerSentiment: null,
    },
    questionCount: 0,
    asked: null,
    named: null,
    standIn: null,
    answerVoices: [],
    answerCount: 0,
    answerWords: 0,
    answerFirstStartMs: 0,
    answerLastEndMs: 0,
    sentiment: { sum: 0, n: 0 },
  };
}

function addQuestion(t: Building, s: TranscriptSentence): void {
  // The first sentence that asks, else the first sentence.
  if (t.asked === null || (!t.asked.text.trim().endsWith("?") && s.text.trim().endsWith("?"))) t.asked = s;
  if (t.named === null && s.speakerName) t.named = s.speakerName;
  if (t.standIn === null && t.questionCount < 4) t.standIn = STAND_IN.exec(s.text)?.[1] || null;
  t.questionCount++;
}

function addAnswer(t: Building, s: TranscriptSentence): void {
  const speakerName = s.speakerName?.trim() || null;
  if (!t.answerVoices.some((v) => v.speaker === s.speaker && v.speakerName === speakerName))
    t.answerVoices.push({ speakerName, speaker: s.speaker });
  if (t.answerCount === 0) t.answerFirstStartMs = s.startMs;
  t.answerLastEndMs = s.endMs;
  t.answerCount++;
  t.answerWords += wordCount(s.text);
  addTo(t.sentiment, s.sentiment);
}

function finishTurn(
  t: Building,
  byName: Map<string, TranscriptParticipant>,
  nameOf: (label: string) => string | null,
): QaTurn {
  const turn = t.turn;
  // Enrichment's name for the analyst's voice is better evidence than our reading of the operator; a colleague
  // asking in the introduced analyst's place asks for the same firm.
  const analyst = t.named ?? t.standIn ?? turn.analyst ?? (turn.speaker ? nameOf(turn.speaker) : null);
  const firm = (analyst ? byName.get(analyst.toLowerCase())?.organization : null) ?? turn.firm;
  const answeredBy: string[] = [];
  for (const v of t.answerVoices) {
    const name = v.speakerName || nameOf(v.speaker) || v.speaker;
    if (!answeredBy.includes(name)) answeredBy.push(name);
  }
  return {
    ...turn,
    answeredBy,
    analyst,
    firm,
    question: t.asked ? oneLine(t.asked.text) : null,
    questionSequence: t.asked ? t.asked.sequence : null,
    answerSentences: t.answerCount,
    answerWords: t.answerWords,
    answerMs: t.answerCount > 0 ? Math.max(0, t.answerLastEndMs - t.answerFirstStartMs) : 0,
    answerSentiment: meanOf(t.sentiment),
  };
}
