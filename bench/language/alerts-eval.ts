/** The guidance alert against the labels: precision and recall over the labelled sentences. */
import type { CorpusCall } from "./corpus";
import type { Implementation } from "./implementation";
import type { LabelledSentence } from "./labels";
import { ratio } from "./live-call";

export interface AlertReport {
  labelledSentences: number;
  guidanceSentences: number;
  fired: number;
  firedRight: number;
  precision: number | null;
  recall: number | null;
  firedOnQuestionsOrOperator: number;
}

export function evaluateAlerts(
  impl: Implementation,
  calls: Map<string, CorpusCall>,
  labels: readonly LabelledSentence[],
  misses?: string[],
): AlertReport {
  let fired = 0;
  let right = 0;
  let guidance = 0;
  let found = 0;
  let wrongRole = 0;
  const byFile = new Map<string, LabelledSentence[]>();
  for (const l of labels) byFile.set(l.file, [...(byFile.get(l.file) ?? []), l]);
  for (const [file, list] of byFile) {
    const call = calls.get(file);
    if (!call) continue;
    const alerts = impl.guidanceAlerts();
    const firedAt = new Set<number>();
    for (const s of call.sentences) {
      const event = {
        callId: file,
        sequence: s.sequence,
        text: s.text,
        speaker: s.speaker,
        startMs: s.startMs,
        endMs: s.endMs,
        confidence: null,
        sentiment: null,
      };
      if (alerts.fires(call.symbol, event)) firedAt.add(s.sequence);
    }
    for (const label of list) {
      const s = call.sentences.find(
        (x) => x.section === label.section && x.turn === label.turn && x.offset === label.offset,
      )!;
      const hit = firedAt.has(s.sequence);
      if (label.guidance) guidance++;
      if (hit) {
        fired++;
        if (label.guidance) right++;
        else
          misses?.push(
            `${file} ${label.section}/${label.turn}@${label.offset} fired, not guidance (${s.role})`,
          );
        if (s.role !== "management") wrongRole++;
      }
      if (label.guidance && hit) found++;
      else if (label.guidance)
        misses?.push(`${file} ${label.section}/${label.turn}@${label.offset} guidance, not fired`);
    }
  }
  return {
    labelledSentences: labels.length,
    guidanceSentences: guidance,
    fired,
    firedRight: right,
    precision: ratio(right, fired),
    recall: ratio(found, guidance),
    firedOnQuestionsOrOperator: wrongRole,
  };
}
