/**
 * The Q&A's structure from the transcript as it grows: where the prepared remarks end, each analyst's turn (from the
 * operator's introduction: "Our next question comes from Jane Doe with Morgan Stanley."), who answered, how long
 * and in what tone, and each speaker's mean sentiment. Live speakers are diarization labels; once enrichment names
 * them, the names (and the participants' firms) take over.
 */
import type { Qa, QaTurn, SpeakerRole, SpeakerSentiment } from "@/lib/schemas/insights";
import { isOperator, type TranscriptParticipant, type TranscriptSentence } from "./sentence";
import { parseIntro } from "./intros";
import { inferSpeakerNames, type SpeakerName } from "./speakers";

const QA_START =
  /\b(?:(?:begin|start|open|move to|turn to|now (?:take|go to)) (?:the |our )?(?:question-and-answer|question and answer|Q&A)|open (?:up )?the (?:line|lines|floor|call) (?:up )?(?:for|to) questions|(?:first|our first) question (?:comes|is coming|will come|is from)|take (?:our|the) first question)\b/i;
/** "After the speakers' presentation, there will be a question-and-answer session.": an announcement, not the start. */
const QA_ANNOUNCED =
  /\bthere will be\b|\bafter the (?:speakers'?|prepared|presentation)|\blater\b|\bat the end\b/i;

const ONE_LINE = 160;

/** The question itself: the first sentence that asks, without the pleasantries before it, cut to one line. */
function oneLine(text: string): string {
  const clean = text.replace(/\s+/g, " ").trim();
  const asked = clean.split(/(?<=[.!?])\s+(?=[A-Z"“])/).find((s) => s.endsWith("?"));
  const t = asked ?? clean;
  return t.length <= ONE_LINE ? t : `${t.slice(0, ONE_LINE - 1).trimEnd()}…`;
}

const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

function mean(values: readonly (number | null | undefined)[]): number | null {
  let sum = 0;
  let n = 0;
  for (const v of values) {
    if (typeof v === "number" && Number.isFinite(v)) {
      sum += v;
      n++;
    }
  }
  return n === 0 ? null : Math.round((sum / n) * 1000) / 1000;
}

interface Building extends QaTurn {
  questionSentences: TranscriptSentence[];
  answerSentencesList: TranscriptSentence[];
}

const opensMemo = new Map<string, boolean>();
/** The sentence opens the Q&A (memoised: the transcript is reread on each new sentence). */
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

export function detectQa(
  sentences: readonly TranscriptSentence[],
  participants: readonly TranscriptParticipant[] = [],
): Qa {
  const names = inferSpeakerNames(sentences);
  const nameOf = (label: string) => names.get(label)?.name ?? null;
  const displayName = (s: TranscriptSentence) => s.speakerName?.trim() || nameOf(s.speaker) || s.speaker;
  const analystsByRole = new Set(
    participants.filter((p) => /analyst/i.test(p.role ?? "")).map((p) => p.name.toLowerCase()),
  );
  // The Q&A starts where it is opened, or at the operator's first introduction of an analyst.
  const qaStart = sentences.find((s) => opensQa(s.text) || (isOperator(s) && parseIntro(s.text) !== null));
  const qaStartSequence = qaStart ? qaStart.sequence : null;
  const management = new Set<string>();
  const analysts = new Set<string>();
  const turns: Building[] = [];
  let current: Building | null = null;

  for (const s of sentences) {
    const inQa = qaStartSequence !== null && s.sequence >= qaStartSequence;
    if (isOperator(s)) {
      const intro = inQa ? parseIntro(s.text) : null;
      if (intro) {
        current = newTurn(s, intro.analyst, intro.firm);
        turns.push(current);
      }
      continue;
    }
    if (!inQa) {
      management.add(s.speaker);
      continue;
    }
    const enrichedAnalyst = s.speakerName ? analystsByRole.has(s.speakerName.toLowerCase()) : false;
    if (current && current.speaker === null && !management.has(s.speaker)) {
      // The first voice after an introduction is the analyst introduced.
      current.speaker = s.speaker;
      analysts.add(s.speaker);
    } else if (
      !management.has(s.speaker) &&
      s.speaker !== current?.speaker &&
      (current === null || current.answerSentencesList.length > 0) &&
      (analysts.has(s.speaker) || enrichedAnalyst || ASKS.test(s.text))
    ) {
      // An analyst the operator did not introduce (or whose introduction was missed): a turn of its own.
      current = newTurn(s, null, null);
      current.speaker = s.speaker;
      analysts.add(s.speaker);
      turns.push(current);
    } else if (!analysts.has(s.speaker) && s.speaker !== current?.speaker) {
      // A voice that answers without having been introduced: an executive joining the Q&A.
      management.add(s.speaker);
    }
    if (!current) continue;
    if (s.speaker === current.speaker) current.questionSentences.push(s);
    else current.answerSentencesList.push(s);
  }

  const byName = new Map(participants.map((p) => [p.name.toLowerCase(), p]));
  const finished = turns.map((t) => finishTurn(t, byName, displayName, nameOf));
  return {
    qaStartSequence,
    turns: finished,
    speakers: speakerSentiments(sentences, finished, management, byName, names),
  };
}

function newTurn(s: TranscriptSentence, analyst: string | null, firm: string | null): Building {
  return {
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
    questionSentences: [],
    answerSentencesList: [],
  };
}

function finishTurn(
  t: Building,
  byName: Map<string, TranscriptParticipant>,
  displayName: (s: TranscriptSentence) => string,
  nameOf: (label: string) => string | null,
): QaTurn {
  const { questionSentences, answerSentencesList, ...turn } = t;
  const asked = questionSentences.find((s) => s.text.trim().endsWith("?")) ?? questionSentences[0];
  // Enrichment's name for the analyst's voice is better evidence than our reading of the operator.
  const named = questionSentences.find((s) => s.speakerName)?.speakerName ?? null;
  // "This is Brian Biros on for Kathryn": a colleague asks in the introduced analyst's place, for the same firm.
  const standIn = questionSentences
    .slice(0, 4)
    .map((s) => STAND_IN.exec(s.text)?.[1])
    .find(Boolean);
  const analyst = named ?? standIn ?? turn.analyst ?? (turn.speaker ? nameOf(turn.speaker) : null);
  const firm = (analyst ? byName.get(analyst.toLowerCase())?.organization : null) ?? turn.firm;
  const answeredBy: string[] = [];
  for (const s of answerSentencesList) {
    const name = displayName(s);
    if (!answeredBy.includes(name)) answeredBy.push(name);
  }
  const first = answerSentencesList[0];
  const last = answerSentencesList[answerSentencesList.length - 1];
  return {
    ...turn,
    analyst,
    firm,
    question: asked ? oneLine(asked.text) : null,
    questionSequence: asked ? asked.sequence : null,
    answeredBy,
    answerSentences: answerSentencesList.length,
    answerWords: answerSentencesList.reduce((n, s) => n + wordCount(s.text), 0),
    answerMs: first && last ? Math.max(0, last.endMs - first.startMs) : 0,
    answerSentiment: mean(answerSentencesList.map((s) => s.sentiment)),
  };
}

function speakerSentiments(
  sentences: readonly TranscriptSentence[],
  turns: readonly QaTurn[],
  management: Set<string>,
  byName: Map<string, TranscriptParticipant>,
  names: Map<string, SpeakerName>,
): SpeakerSentiment[] {
  const analysts = new Map<string, QaTurn>();
  for (const t of turns) if (t.speaker) analysts.set(t.speaker, t);
  const groups = new Map<string, TranscriptSentence[]>();
  for (const s of sentences) {
    const list = groups.get(s.speaker);
    if (list) list.push(s);
    else groups.set(s.speaker, [s]);
  }
  const out: SpeakerSentiment[] = [];
  for (const [speaker, list] of groups) {
    const turn = analysts.get(speaker);
    const enriched = list.find((s) => s.speakerName)?.speakerName ?? null;
    const inferred = names.get(speaker) ?? null;
    const name =
      enriched ?? (inferred && !isOperator(list[0]!) ? inferred.name : null) ?? turn?.analyst ?? null;
    const participant = name ? byName.get(name.toLowerCase()) : undefined;
    const role: SpeakerRole = isOperator(list[0]!)
      ? "operator"
      : turn || (!management.has(speaker) && /analyst/i.test(participant?.role ?? ""))
        ? "analyst"
        : "management";
    out.push({
      speaker,
      name,
      nameInferred: name !== null && enriched === null,
      role,
      firm: participant?.organization ?? turn?.firm ?? null,
      sentences: list.length,
      sentiment: role === "operator" ? null : mean(list.map((s) => s.sentiment)),
    });
  }
  return out;
}
