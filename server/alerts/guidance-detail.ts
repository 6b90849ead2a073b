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
    return compareWithConsensus(figures, consensus).map(guidanceLine).join("; ");
  };
}
