/** The Q&A and live speaker names against what the files say: analysts listed in time, names right while live. */
import type { CorpusCall } from "./corpus";
import type { Implementation, LooseInsights } from "./implementation";
import { enrichedSentences, liveSentences, participantsOf, ratio } from "./live-call";
import { sameFirm, sameName } from "./names";

export interface QaReport {
  calls: number;
  introducedAnalysts: number;
  listedWithin60s: number;
  coverage: number | null;
  /** Of those listed, with the right firm (the coverage already requires it). */
  analystSentencesRightTurn: number | null;
  answeredByRight: number | null;
  managementSentences: number;
  speakerNameLive: number | null;
  speakerNameLiveByEnd: number | null;
  speakerNameEnriched: number | null;
  missesSample: string[];
}

const INTRO_WINDOW_MS = 60_000;

export function evaluateQa(impl: Implementation, calls: readonly CorpusCall[]): QaReport {
  let introduced = 0;
  let listed = 0;
  let analystSentences = 0;
  let analystRight = 0;
  let turnsChecked = 0;
  let turnsRight = 0;
  let mgmt = 0;
  let mgmtLive = 0;
  let mgmtEnd = 0;
  let mgmtEnriched = 0;
  const misses: string[] = [];
  for (const call of calls) {
    const live = liveSentences(call);
    const firmOf = new Map(call.participants.filter((p) => p.isAnalyst).map((p) => [p.name, p.firm]));
    // Introductions: an operator turn in the Q&A whose next turn is an analyst's; each analyst counted once.
    const intros: { person: string; firm: string; deadline: number }[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < call.sentences.length; i++) {
      const s = call.sentences[i]!;
      const next = call.sentences[i + 1];
      if (s.section !== "q_and_a" || s.role !== "operator" || !next || next.role !== "analyst") continue;
      if (seen.has(next.person)) continue;
      seen.add(next.person);
      const firm = firmOf.get(next.person);
      if (!firm) continue;
      intros.push({ person: next.person, firm, deadline: s.endMs + INTRO_WINDOW_MS });
    }
    introduced += intros.length;
    const engine = impl.newEngine({ consensus: { current: null, next: null }, previousCall: null });
    const pending = [...intros];
    let last: LooseInsights | null = null;
    for (let n = 1; n <= live.length; n++) {
      const s = live[n - 1]!;
      // The state a viewer holds at a deadline is the one computed from the sentences before it.
      while (pending.length > 0 && s.startMs > pending[0]!.deadline && last) {
        const intro = pending.shift()!;
        if (last.qa.turns.some((t) => sameName(t.analyst, intro.person) && sameFirm(t.firm, intro.firm)))
          listed++;
        else if (misses.length < 40) misses.push(`${call.file}: ${intro.person} (${intro.firm}) not listed`);
      }
      last = engine.compute({ sentences: live.slice(0, n), isComplete: false });
      const truth = call.sentences[n - 1]!;
      if (truth.role === "management") {
        mgmt++;
        const name = last.qa.speakers.find((x) => x.speaker === s.speaker)?.name;
        if (sameName(name, truth.person)) mgmtLive++;
      }
    }
    if (last) {
      for (const intro of pending)
        if (last.qa.turns.some((t) => sameName(t.analyst, intro.person) && sameFirm(t.firm, intro.firm)))
          listed++;
      const names = new Map(last.qa.speakers.map((x) => [x.speaker, x.name]));
      for (const truth of call.sentences)
        if (truth.role === "management" && sameName(names.get(truth.speaker), truth.person)) mgmtEnd++;
      const turns = [...last.qa.turns].sort((a, b) => a.sequence - b.sequence);
      const turnAt = (seq: number) => turns.filter((t) => t.sequence <= seq).at(-1);
      for (const truth of call.sentences) {
        if (truth.section !== "q_and_a" || truth.role !== "analyst") continue;
        analystSentences++;
        if (sameName(turnAt(truth.sequence)?.analyst, truth.person)) analystRight++;
      }
      turns.forEach((t, i) => {
        const end = turns[i + 1]?.sequence ?? Infinity;
        const answerers = new Set(
          call.sentences
            .filter((x) => x.sequence > t.sequence && x.sequence < end && x.role === "management")
            .map((x) => x.person),
        );
        if (answerers.size === 0) return;
        turnsChecked++;
        const said = t.answeredBy;
        if (said.length === answerers.size && [...answerers].every((p) => said.some((n) => sameName(n, p))))
          turnsRight++;
      });
    }
    const enriched = impl
      .newEngine({ consensus: { current: null, next: null }, previousCall: null })
      .compute({ sentences: enrichedSentences(call), participants: participantsOf(call), isComplete: true });
    const names = new Map(enriched.qa.speakers.map((x) => [x.speaker, x.name]));
    for (const truth of call.sentences)
      if (truth.role === "management" && sameName(names.get(truth.speaker), truth.person)) mgmtEnriched++;
  }
  return {
    calls: calls.length,
    introducedAnalysts: introduced,
    listedWithin60s: listed,
    coverage: ratio(listed, introduced),
    analystSentencesRightTurn: ratio(analystRight, analystSentences),
    answeredByRight: ratio(turnsRight, turnsChecked),
    managementSentences: mgmt,
    speakerNameLive: ratio(mgmtLive, mgmt),
    speakerNameLiveByEnd: ratio(mgmtEnd, mgmt),
    speakerNameEnriched: ratio(mgmtEnriched, mgmt),
    missesSample: misses,
  };
}
