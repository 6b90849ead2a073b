/** What a calendar record gives a call to say: its figures, the tone they set, and how EPS is labelled. */
import type { WireEarningsRecord } from "../../universe/wire";
import { parseAmount } from "./figures";
import type { Tone } from "./types";

export interface Figures {
  eps: number | null;
  epsPrior: number | null;
  epsEst: number | null;
  revenue: number | null;
  revenuePrior: number | null;
  revenueEst: number | null;
  epsSurprisePct: number | null;
  revenueSurprisePct: number | null;
  /** False when the record has no actuals yet: the call then speaks to the estimates (documented fallback). */
  hasActuals: boolean;
  epsLabel: string;
}

export function figuresOf(record: WireEarningsRecord): Figures {
  const eps = parseAmount(record.eps);
  const revenue = parseAmount(record.revenue);
  const epsEst = parseAmount(record.eps_est);
  const revenueEst = parseAmount(record.revenue_est);
  const hasActuals = eps !== null || revenue !== null;
  const epsLabel =
    record.eps_type === "FFO"
      ? "FFO per share"
      : record.eps_type === "GAAP"
        ? "GAAP earnings per share"
        : "adjusted earnings per share";
  return {
    eps: eps ?? epsEst,
    epsPrior: parseAmount(record.eps_prior),
    epsEst,
    revenue: revenue ?? revenueEst,
    revenuePrior: parseAmount(record.revenue_prior),
    revenueEst,
    epsSurprisePct: parseAmount(record.eps_surprise_percent),
    revenueSurprisePct: parseAmount(record.revenue_surprise_percent),
    hasActuals,
    epsLabel,
  };
}

export function toneOf(record: WireEarningsRecord): Tone {
  const f = figuresOf(record);
  if (!f.hasActuals) return "inline";
  const eps = f.epsSurprisePct ?? 0;
  const rev = f.revenueSurprisePct ?? 0;
  // Percent surprises arrive either as fractions (0.05) or as percents (5): normalise to percent.
  const epsPct = Math.abs(eps) <= 1 && eps !== 0 ? eps * 100 : eps;
  const revPct = Math.abs(rev) <= 1 && rev !== 0 ? rev * 100 : rev;
  if (epsPct <= -2 || revPct <= -2) return "miss";
  if (epsPct >= 2 && revPct > -1) return "beat";
  return "inline";
}

export function changeWords(
  current: number,
  prior: number | null,
): { pct: number; dir: "up" | "down" } | null {
  if (prior === null || prior === 0 || current === 0) return null;
  const pct = ((current - prior) / Math.abs(prior)) * 100;
  if (!Number.isFinite(pct) || Math.abs(pct) > 500) return null;
  return { pct, dir: pct >= 0 ? "up" : "down" };
}

export function basisOf(epsLabel: string): string {
  if (epsLabel.startsWith("GAAP")) return "a GAAP";
  if (epsLabel.startsWith("FFO")) return "an FFO";
  return "an adjusted";
}

export function shortEpsLabel(epsLabel: string): string {
  if (epsLabel.startsWith("GAAP")) return "GAAP EPS";
  if (epsLabel.startsWith("FFO")) return "FFO per share";
  return "adjusted EPS";
}
