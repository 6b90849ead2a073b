import { CHANGE_LABELS, changeSummary } from "@/lib/figure-format";
import type { Insights } from "@/lib/schemas/insights";

/** Sentences of this call that changed since the previous one, with what changed: the transcript marks them. */
export function changedSentences(insights: Insights): Map<number, string> {
  const marks = new Map<number, string>();
  for (const c of insights.changes) {
    if (c.sequence === null) continue;
    const line = `${CHANGE_LABELS[c.kind]}: ${changeSummary(c)}`;
    const had = marks.get(c.sequence);
    marks.set(c.sequence, had ? `${had}\n${line}` : line);
  }
  return marks;
}
