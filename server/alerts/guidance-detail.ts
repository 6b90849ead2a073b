import "server-only";
import { compareWithConsensus } from "@/lib/insights/consensus";
import { extractFigures, isFact } from "@/lib/insights/figures";
import { guidanceLine } from "@/lib/figure-format";
import type { Consensus } from "@/lib/schemas/insights";
import type { AlertCandidate } from "./rules";

export interface GuidanceDetailDeps {
  /** The earnings calendar's records of the call's quarter and the next (the insights' consensus), or null. */
  consensusFor(callId: string, symbol: string): Promise<Consensus | null>;
}

/**
 * What a guidance alert carries beside the sentence: the guidance figures the sentence states, each against the
 * consensus the call room's Figures panel compares it with ("guides revenue $4.10B, 1.6% below consensus $4.17B").
 * The figures and the comparison are the insights engine's own (lib/insights), so the alert and the panel agree.
 * Null when the sentence states no guidance figure shown as fact.
 */
export function createGuidanceDescriber(deps: GuidanceDetailDeps) {
  return async (candidate: AlertCandidate): Promise<string | null> => {
    if (candidate.callId === null || candidate.sequence === null) return null;
    const figures = extractFigures({
      sequence: candidate.sequence,
      text: candidate.text,
      startMs: candidate.startMs ?? 0,
    }).filter((f) => f.isGuidance && isFact(f));
    if (figures.length === 0) return null;
    const consensus = await deps.consensusFor(candidate.callId, candidate.symbol);
    // The same rule as the call room's (docs/insights.md, "Consensus"), read on the alert's own sentence; the
    // alert does not know where the call's Q&A starts, so a guidance sentence there may be compared too.
    const quarter = consensus?.current?.period
      ? /^Q([1-4])$/i.exec(consensus.current.period.trim())?.[1]
      : undefined;
    return compareWithConsensus(figures, consensus, {
      textOf: (sequence) => (sequence === candidate.sequence ? candidate.text : undefined),
      fiscalQuarter: quarter ? Number(quarter) : null,
      fiscalYear: consensus?.current?.periodYear ?? null,
      qaStartSequence: null,
    })
      .map(guidanceLine)
      .join("; ");
  };
}
