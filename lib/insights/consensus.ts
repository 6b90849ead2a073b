/**
 * Figures against the earnings calendar: the quarter's revenue and EPS against `revenueEst` / `epsEst`, guidance
 * midpoints against the next quarter's. When the spoken figure is the calendar's actual as rounded when spoken
 * ("$4.2 billion" for 4,213,000,000), the calendar's own surprise is shown, so the two screens agree; otherwise the
 * surprise is computed from what was said.
 */
import type { Consensus, ConsensusRecord, Figure } from "@/lib/schemas/insights";

export function surprisePercent(actual: number, estimate: number): number | undefined {
  if (estimate === 0 || !Number.isFinite(estimate)) return undefined;
  return Math.round(((actual - estimate) / Math.abs(estimate)) * 100 * 1000) / 1000;
}

/** The spoken figure's precision: "$4.2 billion" stands for anything that rounds to 4.2 billion. */
function roundsTo(spoken: Figure, actual: number): boolean {
  const factor = { one: 1, thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 }[spoken.scale];
  const decimals = spoken.quote.match(/\.(\d+)/)?.[1]?.length ?? 0;
  const step = factor / 10 ** decimals;
  return Math.abs(actual - spoken.value) <= step / 2 + 1e-9 * Math.abs(actual);
}

/** The calendar's basis ("Adj", "GAAP", "FFO") admits a figure said on this basis. */
function basisAgrees(figure: Figure, epsType: string | null): boolean {
  if (figure.basis === null || epsType === null || epsType === "") return true;
  const adjusted = /adj|non/i.test(epsType);
  return figure.basis === (adjusted ? "adjusted" : "gaap");
}

function compare(figure: Figure, record: ConsensusRecord, useActual: boolean): Figure {
  const isEps = figure.metric === "eps";
  const estimate = isEps ? record.epsEst : record.revenueEst;
  if (estimate === null) return figure;
  if (isEps && !basisAgrees(figure, record.epsType)) return figure;
  const actual = isEps ? record.eps : record.revenue;
  const reported = isEps ? record.epsSurprisePercent : record.revenueSurprisePercent;
  const surprise =
    useActual && actual !== null && reported !== null && roundsTo(figure, actual)
      ? reported
      : surprisePercent(figure.value, estimate);
  return surprise === undefined
    ? { ...figure, consensus: estimate }
    : { ...figure, consensus: estimate, surprisePercent: surprise };
}

/** Adds `consensus` and `surprisePercent` to the figures the calendar has an estimate for. */
export function compareWithConsensus(figures: readonly Figure[], consensus: Consensus | null): Figure[] {
  if (!consensus) return figures as Figure[];
  return figures.map((f) => {
    if (f.kind !== "level" || (f.metric !== "revenue" && f.metric !== "eps")) return f;
    if (f.unit !== (f.metric === "eps" ? "usd_per_share" : "usd")) return f;
    if (!f.isGuidance && f.period === "quarter" && consensus.current)
      return compare(f, consensus.current, true);
    if (f.isGuidance && f.period === "next_quarter" && consensus.next)
      return compare(f, consensus.next, false);
    return f;
  });
}
