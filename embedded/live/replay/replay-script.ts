/**
 * A transcript file as a call's script and timeline (docs/upstream.md §7, "Replay"). Sentences in file order,
 * prepared remarks then Q&A; the operator's turns are `OPERATOR`, everyone else `SPEAKER_n` in order of first
 * appearance, one label per person as a live diarizer gives; the names, titles and firms wait for enrichment.
 * Timing from word counts at about 150 words a minute, with a breath between sentences and a longer pause when the
 * speaker changes: the call's own timeline (1×), which a replay at speed n walks n times faster.
 */
import type { EnrichmentSpeaker } from "../enrichment/types";
import type { CallScript, ScriptSentence } from "../script/types";
import type { TranscriptFile, TranscriptParticipant } from "./transcript-file";

/** 150 words a minute. */
export const REPLAY_MS_PER_WORD = 400;
const LEAD_IN_MS = 1200;
const SAME_SPEAKER_PAUSE_MS = 300;
const NEW_SPEAKER_PAUSE_MS = 800;
const TRAIL_MS = 1500;

export const wordCount = (text: string): number => text.split(/\s+/).filter((w) => w !== "").length;

/** How long a sentence takes to say at 1×. */
export const replaySpeechMs = (text: string): number => Math.max(1, wordCount(text)) * REPLAY_MS_PER_WORD;

const isOperator = (speaker: string) => /\boperator\b/i.test(speaker);

export interface ReplayPlan {
  script: CallScript;
  /** Where each sentence starts on the call's timeline (ms from the start, 1×). */
  startsMs: number[];
  /** The call's length at 1×, whole seconds. */
  durationSeconds: number;
}

/**
 * Who a speaker is, from the participants list (by name, then by name ignoring case); someone the list leaves out is
 * an analyst when they first speak in the Q&A right after the operator (who introduced them), else the company's.
 */
function speakerOf(
  label: string,
  name: string,
  participants: readonly TranscriptParticipant[],
  introducedByOperator: boolean,
  company: string,
): EnrichmentSpeaker {
  if (label === "OPERATOR")
    return { label, name: "Operator", role: "Operator", title: "Operator", organization: company };
  const listed =
    participants.find((p) => p.name === name) ??
    participants.find((p) => p.name.toLowerCase() === name.toLowerCase());
  const role =
    listed && listed.role !== "Unknown" ? listed.role : introducedByOperator ? "Analyst" : "Executive";
  if (role === "Analyst")
    return { label, name, role, title: listed?.title || "Analyst", organization: listed?.organization ?? "" };
  return { label, name, role, title: listed?.title || "Executive", organization: company };
}

export function replayPlan(file: TranscriptFile, callId: string): ReplayPlan {
  const { ticker, period, year } = file.name;
  const labels = new Map<string, string>();
  const speakers: EnrichmentSpeaker[] = [];
  const sentences: ScriptSentence[] = [];
  const startsMs: number[] = [];
  let cursor = LEAD_IN_MS;
  let lastLabel: string | null = null;
  file.turns.forEach((turn, t) => {
    let label = labels.get(turn.speaker);
    if (!label) {
      label = isOperator(turn.speaker)
        ? "OPERATOR"
        : `SPEAKER_${speakers.filter((s) => s.label !== "OPERATOR").length + 1}`;
      labels.set(turn.speaker, label);
      const previous = file.turns[t - 1];
      const introduced = turn.section === "qa" && previous !== undefined && isOperator(previous.speaker);
      if (!speakers.some((s) => s.label === label))
        speakers.push(speakerOf(label, turn.speaker, file.participants, introduced, ticker));
    }
    for (const text of turn.sentences) {
      if (lastLabel !== null) cursor += lastLabel === label ? SAME_SPEAKER_PAUSE_MS : NEW_SPEAKER_PAUSE_MS;
      lastLabel = label;
      startsMs.push(cursor);
      cursor += replaySpeechMs(text);
      sentences.push({ speakerLabel: label, text, section: turn.section === "qa" ? "qa" : "prepared" });
    }
  });
  return {
    script: {
      callId,
      title: `${period} ${year} ${ticker} Earnings Conference Call`,
      tone: "inline",
      period,
      year,
      speakers,
      sentences,
      closeIndex: sentences.length,
    },
    startsMs,
    durationSeconds: Math.ceil((cursor + TRAIL_MS) / 1000),
  };
}
