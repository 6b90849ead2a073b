/**
 * The Q&A's structure from the transcript as it grows: where the prepared remarks end, each analyst's turn (from the
 * operator's introduction: "Our next question comes from Jane Doe with Morgan Stanley."), who answered, how long
 * and in what tone, and each speaker's mean sentiment. Live speakers are diarization labels; once enrichment names
 * them, the names (and the participants' firms) take over.
 */
import type { Qa, QaTurn, SpeakerRole, SpeakerSentiment } from "@/lib/schemas/insights";
import { isOperator, type TranscriptParticipant, type TranscriptSentence } from "./sentence";

const QA_START =
  /\b(?:(?:begin|start|open|move to|turn to|now (?:take|go to)) (?:the |our )?(?:question-and-answer|question and answer|Q&A)|open (?:up )?the (?:line|lines|floor|call) (?:up )?(?:for|to) questions|(?:first|our first) question (?:comes|is coming|will come|is from)|take (?:our|the) first question)\b/i;
/** "After the speakers' presentation, there will be a question-and-answer session.": an announcement, not the start. */
const QA_ANNOUNCED =
  /\bthere will be\b|\bafter the (?:speakers'?|prepared|presentation)|\blater\b|\bat the end\b/i;

const NAME = String.raw`([A-Z][\w'’-]+(?:\s+(?:[A-Z]\.|[A-Z][\w'’-]+)){1,3})`;
const FIRM_WORD = String.raw`(?:(?:[A-Z]\.){1,3}|[A-Z&][\w&'’-]*)`;
const FIRM = String.raw`(${FIRM_WORD}(?:\s+(?:of|and|&|de|${FIRM_WORD})){0,5})`;
const INTRO = [
  new RegExp(
    String.raw`(?:question|follow-up)(?:s)?\s+(?:(?:comes?|is coming|will come|is)\s+)?from\s+(?:the line of\s+)?${NAME}\s+(?:with|from|of|at)\s+${FIRM}`,
  ),
  new RegExp(
    String.raw`(?:take|go to|hear from|move to)\s+(?:our\s+|the\s+)?(?:next\s+|first\s+|last\s+|final\s+)?(?:question\s+)?(?:from\s+)?${NAME}\s+(?:with|from|of|at)\s+${FIRM}`,
  ),
  new RegExp(
    String.raw`^${NAME}\s+(?:with|from|of|at)\s+${FIRM}[,.]?\s+(?:your line is open|please go ahead|go ahead)`,
    "i",
  ),
];

export interface AnalystIntro {
  analyst: string;
  firm: string;
}

// detectQa reads the whole transcript each time it grows; operator sentences do not change.
const introMemo = new Map<string, AnalystIntro | null>();
const MEMO_MAX = 20_000;

/** The analyst and firm an operator's sentence introduces, or null. */
export function parseIntro(text: string): AnalystIntro | null {
  const hit = introMemo.get(text);
  if (hit !== undefined) return hit;
  const intro = readIntro(text);
  if (introMemo.size >= MEMO_MAX) introMemo.clear();
  introMemo.set(text, intro);
  return intro;
}

function readIntro(text: string): AnalystIntro | null {
  for (const re of INTRO) {
    const m = re.exec(text);
    if (!m) continue;
    const firm = m[2]!.replace(/\s+(?:of|and|&|de)$/i, "").trim();
    return { analyst: m[1]!.trim(), firm };
  }
  return null;
}

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

const displayName = (s: TranscriptSentence) => s.speakerName?.trim() || s.speaker;

export function detectQa(
  sentences: readonly TranscriptSentence[],
  participants: readonly TranscriptParticipant[] = [],
): Qa {
  const qaStart = sentences.find((s) => QA_START.test(s.text) && !QA_ANNOUNCED.test(s.text));
  const qaStartSequence = qaStart ? qaStart.sequence : null;
  const management = new Set<string>();
  const turns: Building[] = [];
  let current: Building | null = null;

  for (const s of sentences) {
    const inQa = qaStartSequence !== null && s.sequence >= qaStartSequence;
    if (isOperator(s)) {
      const intro = inQa || qaStartSequence === null ? parseIntro(s.text) : null;
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
    if (current && current.speaker === null && !management.has(s.speaker)) {
      current.speaker = s.speaker;
    } else if (
      !management.has(s.speaker) &&
      s.speaker !== current?.speaker &&
      (current === null || current.answerSentencesList.length > 0)
    ) {
      // An analyst the operator did not introduce (or whose introduction was missed): a turn of its own.
      current = newTurn(s, null, null);
      current.speaker = s.speaker;
      turns.push(current);
    }
    if (!current) continue;
    if (s.speaker === current.speaker) current.questionSentences.push(s);
    else current.answerSentencesList.push(s);
  }

  const byName = new Map(participants.map((p) => [p.name.toLowerCase(), p]));
  const finished = turns.map((t) => finishTurn(t, byName));
  return {
    qaStartSequence,
    turns: finished,
    speakers: speakerSentiments(sentences, finished, management, byName),
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

function finishTurn(t: Building, byName: Map<string, TranscriptParticipant>): QaTurn {
  const { questionSentences, answerSentencesList, ...turn } = t;
  const asked = questionSentences.find((s) => s.text.trim().endsWith("?")) ?? questionSentences[0];
  // Enrichment's name for the analyst's voice is better evidence than our reading of the operator.
  const named = questionSentences.find((s) => s.speakerName)?.speakerName ?? null;
  const analyst = named ?? turn.analyst;
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
    const name = list.find((s) => s.speakerName)?.speakerName ?? turn?.analyst ?? null;
    const participant = name ? byName.get(name.toLowerCase()) : undefined;
    const role: SpeakerRole = isOperator(list[0]!)
      ? "operator"
      : turn || (!management.has(speaker) && /analyst/i.test(participant?.role ?? ""))
        ? "analyst"
        : "management";
    out.push({
      speaker,
      name,
      role,
      firm: participant?.organization ?? turn?.firm ?? null,
      sentences: list.length,
      sentiment: role === "operator" ? null : mean(list.map((s) => s.sentiment)),
    });
  }
  return out;
}
