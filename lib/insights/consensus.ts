/**
 * Figures against the earnings calendar (docs/insights.md, "Consensus"): a figure is compared only when it is what
 * the calendar row estimates — the company's own revenue or EPS (FFO per share for a calendar on an FFO basis), a
 * level stated as fact, of the quarter the row covers (guidance: of the next row's quarter), on the row's EPS basis.
 * When the spoken figure is the calendar's actual as rounded when spoken ("$4.2 billion" for 4,213,000,000), the
 * calendar's own surprise is shown, so the two screens agree; otherwise it is computed from what was said.
 */
import type { Consensus, ConsensusRecord, Figure } from "@/lib/schemas/insights";
import { isFact } from "./figures";

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

type EpsBasis = "gaap" | "adjusted" | "ffo" | null;

/** The calendar's basis ("Adj", "GAAP", "FFO"), or null when it does not say. */
function calendarBasis(epsType: string | null): EpsBasis {
  if (epsType === null || epsType.trim() === "") return null;
  if (/ffo/i.test(epsType)) return "ffo";
  return /adj|non|oper|core/i.test(epsType) ? "adjusted" : "gaap";
}

/**
 * Is this per-share figure on the calendar's basis? A plain "EPS" (no basis said) is the reported, GAAP figure: it
 * meets a GAAP row, never an adjusted one. FFO per share meets an FFO row only as plain FFO (not "core" or
 * "adjusted" FFO, which are other measures). With no basis on the row, any EPS is compared.
 */
function onCalendarBasis(figure: Figure, basis: EpsBasis): boolean {
  if (basis === "ffo") return figure.metric === "ffo" && figure.basis === null;
  if (figure.metric !== "eps") return false;
  if (basis === null) return true;
  if (basis === "adjusted") return figure.basis === "adjusted";
  return figure.basis === "gaap" || figure.basis === null;
}

/** The figure is what the calendar row estimates: company-level, a level, in the row's unit. */
function comparable(figure: Figure, record: ConsensusRecord): "revenue" | "eps" | null {
  if (figure.kind !== "level" || figure.segment !== null || !isFact(figure)) return null;
  if (figure.metric === "revenue") return figure.unit === "usd" ? "revenue" : null;
  if (figure.unit !== "usd_per_share") return null;
  return onCalendarBasis(figure, calendarBasis(record.epsType)) ? "eps" : null;
}

function compare(
  figure: Figure,
  record: ConsensusRecord,
  what: "revenue" | "eps",
  useActual: boolean,
): Figure {
  const isEps = what === "eps";
  const estimate = isEps ? record.epsEst : record.revenueEst;
  if (estimate === null) return figure;
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

/**
 * Words that put a company-level reading in doubt: a part of the company ("Results for the regulated business
 * segment were $0.74 per share", "our US sales increased by 44% to $84 million", "revenue from the 787 program"), an
 * item or an impact ("discrete tax items of $135 million or $0.30 per share", "increase 2021 EPS by around $0.06"),
 * something other than reported revenue ("a sales price of $148 million", "an annualized revenue request"). Such a
 * figure may still be shown as fact; it is not held against the calendar, where a wrong reading is a false surprise.
 */
const PART_OR_ITEM =
  /\b(?:segments?|business(?:es)?|divisions?|group|units?|subsidiar(?:y|ies)|regions?|channels?|brands?|programs?|products?|platforms?|portfolios?|franchises?|international|domestic|U\.?S\.?|North America|Europe|Asia|China|Canada|annualized|incremental|additional|synerg\w*|requests?|acquired|acquisitions?|price|(?<!\b(?:excluding|excludes|exclude|for|without|of) (?:the |these |those |certain |all )?(?:\w+ )?)(?:items?|charges?|gains?|impact)|benefit|headwinds?|tailwinds?|contribut\w*|accret\w*)\b/i;
const COMPANY_WIDE = /\b(?:total|consolidated|overall|company|companywide|enterprise)\b/i;

/** Another span than the quarter named in the sentence: its figure may be the year's or the half's. */
const OTHER_SPAN =
  /\b(?:year[- ]to[- ]date|first half|second half|(?:six|nine|twelve) months|full[- ]year|for the (?:fiscal )?year|annual(?:ly)?)\b/i;
const QUARTER_NAMED = /\b(?:quarter|Q[1-4]|three months)\b/i;

/**
 * A sentence whose company-level revenue or EPS can be held against the calendar row of the call's quarter. In a
 * fourth quarter's call the year's results are reported too ("Revenue for 2021 was $5.2 billion"), so there the
 * sentence must name the quarter.
 */
export function isComparableSentence(
  text: string,
  fiscalQuarter: number | null = null,
  guidance = false,
): boolean {
  if (!COMPANY_WIDE.test(text) && PART_OR_ITEM.test(text)) return false;
  if (guidance) return true;
  if (OTHER_SPAN.test(text) && !QUARTER_NAMED.test(text)) return false;
  return fiscalQuarter !== 4 || QUARTER_NAMED.test(text);
}

/**
 * Adds `consensus` and `surprisePercent` to the figures the calendar estimates, and to no other. `textOf` gives a
 * figure's sentence, when known, so that a sentence about a part, an item or another span is left out
 * (isComparableSentence).
 */
export function compareWithConsensus(
  figures: readonly Figure[],
  consensus: Consensus | null,
  sentence?: { textOf: (sequence: number) => string | undefined; fiscalQuarter: number | null },
): Figure[] {
  if (!consensus) return figures as Figure[];
  return figures.map((f) => {
    const text = sentence?.textOf(f.sequence);
    if (text !== undefined && !isComparableSentence(text, sentence!.fiscalQuarter, f.isGuidance)) return f;
    if (!f.isGuidance && f.period === "quarter" && consensus.current) {
      const what = comparable(f, consensus.current);
      return what ? compare(f, consensus.current, what, true) : f;
    }
    if (f.isGuidance && f.period === "next_quarter" && consensus.next) {
      const what = comparable(f, consensus.next);
      return what ? compare(f, consensus.next, what, false) : f;
    }
    return f;
  });
}
