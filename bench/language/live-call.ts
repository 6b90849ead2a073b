/**
 * A corpus call as the code sees it (docs/insights.md, "Evaluation on real calls"): sentences in order under
 * `OPERATOR` / `SPEAKER_n` labels and no names while live; the names and participants once enriched.
 */
import type { CorpusCall } from "./corpus";
import type { EngineSentence, Participant } from "./implementation";

export const ratio = (n: number, d: number) => (d === 0 ? null : Math.round((n / d) * 1000) / 1000);

export function liveSentences(call: CorpusCall): EngineSentence[] {
  return call.sentences.map((s) => ({
    sequence: s.sequence,
    speaker: s.speaker,
    speakerName: null,
    startMs: s.startMs,
    endMs: s.endMs,
    text: s.text,
    sentiment: null,
  }));
}

export function enrichedSentences(call: CorpusCall): EngineSentence[] {
  return liveSentences(call).map((s, i) => ({ ...s, speakerName: call.sentences[i]!.person }));
}

export function participantsOf(call: CorpusCall): Participant[] {
  return call.participants.map((p) => ({
    name: p.name,
    role: p.isAnalyst ? "Analyst" : p.title,
    organization: p.firm,
  }));
}
