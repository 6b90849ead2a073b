/**
 * The call room's engine reads the Q&A and speakers incrementally (docs/insights.md, "Cost"): each step reads only
 * the sentences added since the last one. Its output must equal a fresh reading of the whole transcript at every
 * step. A whole demo call is replayed sentence by sentence as the live stream delivers it (labels only, then the
 * enrichment that names every voice and adds the participants), and each step is compared with `computeInsights`
 * over the same transcript.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_SEED } from "@/embedded/config";
import { generateScript } from "@/embedded/live/script/generate";
import { testClock } from "@/embedded/test/test-clock";
import { buildUniverse } from "@/embedded/universe";
import { computeInsights, InsightsEngine } from "@/lib/insights/engine";
import type { TranscriptParticipant, TranscriptSentence } from "@/lib/insights/sentence";
import type { InsightsContext } from "@/lib/schemas/insights";

function demoCall() {
  const universe = buildUniverse(DEFAULT_SEED);
  const records = universe.earningsRecords(new Date(testClock()));
  const record = records
    .filter((r) => r.eps !== "" && r.revenue !== "")
    .sort((a, b) => b.date.localeCompare(a.date))[0]!;
  const script = generateScript({
    callId: "a".repeat(24),
    company: universe.findCompany(record.ticker)!,
    record,
    nextRecord: undefined,
    startTime: new Date(`${record.date}T21:00:00Z`),
    targetSeconds: 20 * 60,
    seed: DEFAULT_SEED,
  });
  const live: TranscriptSentence[] = script.sentences.map((s, sequence) => ({
    sequence,
    speaker: s.speakerLabel,
    startMs: sequence * 6000,
    endMs: sequence * 6000 + 5000,
    text: s.text,
    sentiment: ((sequence * 37) % 21) / 10 - 1,
  }));
  const nameOf = new Map(script.speakers.map((p) => [p.label, p.name]));
  const enriched = live.map((s) => ({ ...s, speakerName: nameOf.get(s.speaker) ?? null }));
  const participants: TranscriptParticipant[] = script.speakers.map((p) => ({
    name: p.name,
    role: p.role,
    organization: p.organization,
  }));
  const context: InsightsContext = {
    consensus: { current: null, next: null },
    previousCall: null,
    call: { period: record.period, year: record.period_year },
  };
  return { live, enriched, participants, context };
}

describe("the engine's incremental Q&A and speakers", () => {
  const { live, enriched, participants, context } = demoCall();

  it("equals a fresh reading of the transcript at every step of a whole call, and after enrichment", () => {
    expect(live.length).toBeGreaterThan(60);
    const engine = new InsightsEngine(context);
    let analysts = 0;
    for (let n = 1; n <= live.length; n++) {
      const input = { sentences: live.slice(0, n), isComplete: false };
      const step = engine.compute(input);
      expect(step, `after ${n} sentences`).toEqual(computeInsights(input, context));
      analysts = step.qa.turns.length;
    }
    // Not vacuous: the call has a Q&A with introduced analysts and named management voices.
    expect(analysts).toBeGreaterThan(1);
    const last = engine.compute({ sentences: live, isComplete: false });
    expect(last.qa.speakers.filter((s) => s.name !== null && s.nameInferred).length).toBeGreaterThan(2);

    // Enrichment rewrites every sentence (names) and brings the participants: the reading starts over.
    const done = { sentences: enriched, participants, isComplete: true };
    const after = engine.compute(done);
    expect(after).toEqual(computeInsights(done, context));
    expect(after.qa.speakers.every((s) => !s.nameInferred)).toBe(true);
  });

  it("starts over when a sentence already read is rewritten, not only when the transcript grows", () => {
    const engine = new InsightsEngine(context);
    const half = Math.floor(live.length / 2);
    engine.compute({ sentences: live.slice(0, half), isComplete: false });
    const rewritten = live
      .slice(0, half + 1)
      .map((s, i) =>
        i === 1
          ? { ...s, text: "I will now turn the call over to Orla Brennan, our Chief Executive Officer." }
          : s,
      );
    const input = { sentences: rewritten, isComplete: false };
    expect(engine.compute(input)).toEqual(computeInsights(input, context));
  });
});
