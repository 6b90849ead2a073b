/** The figures found against the labels: precision, recall, period, guidance, consensus comparisons. */
import type { CorpusCall } from "./corpus";
import type { Implementation, LooseFigure } from "./implementation";
import type { LabelFigure, LabelledSentence } from "./labels";
import { enrichedSentences, liveSentences, participantsOf, ratio } from "./live-call";

export const CORE_METRICS = new Set([
  "revenue",
  "segment_revenue",
  "comparable_sales",
  "eps",
  "gross_margin",
  "operating_margin",
  "net_margin",
  "operating_income",
  "net_income",
  "free_cash_flow",
  "operating_cash_flow",
  "capex",
  "cash",
  "buyback",
  "dividend",
]);

function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= Math.max(1e-9, 0.006 * Math.abs(b));
}

const isPartLevel = (f: LooseFigure) => f.metric === "segment_revenue" || f.segment !== null;

export function figureMatches(f: LooseFigure, l: LabelFigure): boolean {
  const metricOk =
    l.metrics.includes(f.metric) ||
    (l.segmentOptional && f.metric === "segment_revenue" && l.metrics.includes("revenue"));
  if (!metricOk) return false;
  if (!l.segmentOptional && (l.segment !== null || l.metrics.includes("segment_revenue")) !== isPartLevel(f))
    return false;
  if (f.kind !== l.kind || f.unit !== l.unit) return false;
  if (l.approximate) return true;
  return close(f.value, l.value);
}

interface Tally {
  facts: number;
  factsRight: number;
  labels: number;
  labelsFound: number;
  core: number;
  coreFound: number;
  known: number;
  knownFound: number;
  periodRight: number;
  guidanceFacts: number;
  guidanceRight: number;
  guidanceLabels: number;
  guidanceFound: number;
  compared: number;
  comparedWrong: number;
  unverified: number;
  unverifiedRight: number;
  /** Confidence bucket → [figures, right]. */
  buckets: Record<string, [number, number]>;
  wrongBy: Record<string, number>;
}

const BUCKETS = [0, 0.5, 0.6, 0.7, 0.8, 0.9, 1.01];
const bucketOf = (c: number) => {
  for (let i = BUCKETS.length - 2; i >= 0; i--) if (c >= BUCKETS[i]!) return `${BUCKETS[i]!.toFixed(1)}+`;
  return "0.0+";
};

/**
 * Consensus rows that make every candidate comparable: which figures would the call room hold against the calendar?
 * The rows cover the call's quarter and the next; one run per EPS basis (an adjusted and a GAAP calendar), since the
 * rule compares EPS only on the row's basis.
 */
function probeConsensus(quarter: number, year: number, epsType: "Adj" | "GAAP") {
  const row = (q: number, y: number) => ({
    period: `Q${q}`,
    periodYear: y,
    date: "2000-01-01",
    epsType,
    epsEst: 1,
    eps: null,
    epsSurprisePercent: null,
    revenueEst: 1,
    revenue: null,
    revenueSurprisePercent: null,
  });
  return { current: row(quarter, year), next: quarter === 4 ? row(1, year + 1) : row(quarter + 1, year) };
}

/**
 * A compared figure is right only when it is that company-level revenue or EPS of the quarter (or the guided one),
 * on the row's basis when the label says one.
 */
function comparedRight(f: LooseFigure, l: LabelFigure | undefined, epsType: "Adj" | "GAAP"): boolean {
  if (!l || l.segment !== null || l.metrics.includes("segment_revenue")) return false;
  if (f.unit === "usd_per_share" && l.basis !== null && l.basis !== (epsType === "Adj" ? "adjusted" : "gaap"))
    return false;
  if (f.isGuidance) return l.isGuidance && l.periods.includes("next_quarter");
  return !l.isGuidance && l.periods.includes("quarter");
}

export interface FigureReport {
  sentences: number;
  labelledFigures: number;
  precision: number | null;
  recall: number | null;
  recallCore: number | null;
  recallKnownMetrics: number | null;
  periodAccuracy: number | null;
  guidancePrecision: number | null;
  guidanceRecall: number | null;
  comparedWithConsensus: number;
  comparedWrong: number;
  unverifiedPrecision: number | null;
  calibration: Record<string, { figures: number; precision: number | null }>;
  counts: Omit<Tally, "buckets" | "wrongBy">;
  /** Wrong facts by speaker role, section, metric and kind (totals only). */
  wrongBy: Record<string, number>;
}

export interface FigureMiss {
  file: string;
  turn: number;
  offset: number;
  kind: "wrong" | "missed" | "period" | "compared";
  what: string;
}

export function evaluateFigures(
  impl: Implementation,
  calls: Map<string, CorpusCall>,
  labels: readonly LabelledSentence[],
  options: { enriched: boolean; misses?: FigureMiss[] },
): FigureReport {
  const t: Tally = {
    facts: 0,
    factsRight: 0,
    labels: 0,
    labelsFound: 0,
    core: 0,
    coreFound: 0,
    known: 0,
    knownFound: 0,
    periodRight: 0,
    guidanceFacts: 0,
    guidanceRight: 0,
    guidanceLabels: 0,
    guidanceFound: 0,
    compared: 0,
    comparedWrong: 0,
    unverified: 0,
    unverifiedRight: 0,
    buckets: {},
    wrongBy: {},
  };
  const known = new Set(impl.metrics);
  const byFile = new Map<string, LabelledSentence[]>();
  for (const l of labels) byFile.set(l.file, [...(byFile.get(l.file) ?? []), l]);
  for (const [file, list] of byFile) {
    const call = calls.get(file);
    if (!call) continue;
    const sentences = options.enriched ? enrichedSentences(call) : liveSentences(call);
    const run = (epsType: "Adj" | "GAAP") =>
      impl
        .newEngine({
          consensus: probeConsensus(call.quarter, call.year, epsType),
          previousCall: null,
          call: { period: `Q${call.quarter}`, year: call.year },
        })
        .compute({
          sentences,
          participants: options.enriched ? participantsOf(call) : [],
          isComplete: true,
        });
    const insights = run("Adj");
    // The same figures, held against a GAAP calendar: a figure compared under either row counts.
    const underGaap = run("GAAP").figures;
    const comparedUnder = new Map<LooseFigure, "Adj" | "GAAP">();
    insights.figures.forEach((f, i) => {
      if (f.consensus !== undefined) comparedUnder.set(f, "Adj");
      else if (underGaap[i]?.consensus !== undefined) comparedUnder.set(f, "GAAP");
    });
    for (const label of list) {
      const s = call.sentences.find(
        (x) =>
          x.section === label.section &&
          x.turn === label.turn &&
          x.offset === label.offset &&
          x.length === label.length,
      );
      if (!s)
        throw new Error(`label ${file} ${label.section}/${label.turn}@${label.offset} points at no sentence`);
      const found = insights.figures.filter((f) => f.sequence === s.sequence);
      const taken = new Set<LabelFigure>();
      const matchOf = new Map<LooseFigure, LabelFigure>();
      const facts = found.filter((f) => f.confidence >= impl.threshold);
      for (const f of [...facts, ...found.filter((x) => x.confidence < impl.threshold)]) {
        const l = label.figures.find((x) => !taken.has(x) && figureMatches(f, x));
        if (l) {
          taken.add(l);
          matchOf.set(f, l);
        }
      }
      for (const f of found) {
        const l = matchOf.get(f);
        const bucket = (t.buckets[bucketOf(f.confidence)] ??= [0, 0]);
        bucket[0]++;
        if (l) bucket[1]++;
        if (f.confidence < impl.threshold) {
          t.unverified++;
          if (l) t.unverifiedRight++;
          continue;
        }
        t.facts++;
        if (l) t.factsRight++;
        else {
          // Totals by kind of error, so the held-out side can be understood without reading its sentences.
          const key = `${s.role}/${s.section === "q_and_a" ? "qa" : "remarks"} ${f.metric}${isPartLevel(f) ? "[part]" : ""} ${f.kind}${f.isGuidance ? " g" : ""}`;
          t.wrongBy[key] = (t.wrongBy[key] ?? 0) + 1;
          options.misses?.push(miss(label, "wrong", describe(f)));
        }
        if (l && f.period !== null && l.periods.includes(f.period as LabelFigure["periods"][number]))
          t.periodRight++;
        else if (l) options.misses?.push(miss(label, "period", `${describe(f)} (label ${l.raw})`));
        if (f.isGuidance) {
          t.guidanceFacts++;
          if (l?.isGuidance) t.guidanceRight++;
        }
        const row = comparedUnder.get(f);
        if (row !== undefined) {
          t.compared++;
          if (!comparedRight(f, l, row)) {
            t.comparedWrong++;
            // Why, in totals, so the held-out side can be understood without reading its sentences.
            const why = !l
              ? "not a labelled figure"
              : l.segment !== null || l.metrics.includes("segment_revenue")
                ? "a part's figure"
                : l.isGuidance !== f.isGuidance
                  ? "guidance or not"
                  : f.unit === "usd_per_share" &&
                      l.basis !== null &&
                      l.basis !== (row === "Adj" ? "adjusted" : "gaap")
                    ? "EPS basis"
                    : `period ${l.periods.join("/")}`;
            t.wrongBy[`compared: ${why}`] = (t.wrongBy[`compared: ${why}`] ?? 0) + 1;
            options.misses?.push(miss(label, "wrong", `compared with consensus: ${describe(f)}`));
          } else options.misses?.push(miss(label, "compared", `${describe(f)} (${row} row)`));
        }
      }
      for (const l of label.figures) {
        const foundAsFact = [...matchOf].some(([f, x]) => x === l && f.confidence >= impl.threshold);
        t.labels++;
        if (foundAsFact) t.labelsFound++;
        else options.misses?.push(miss(label, "missed", l.raw));
        if (l.metrics.some((m) => CORE_METRICS.has(m))) {
          t.core++;
          if (foundAsFact) t.coreFound++;
        }
        if (l.metrics.some((m) => known.has(m))) {
          t.known++;
          if (foundAsFact) t.knownFound++;
        }
        if (l.isGuidance) {
          t.guidanceLabels++;
          if (foundAsFact && [...matchOf].some(([f, x]) => x === l && f.isGuidance)) t.guidanceFound++;
        }
      }
    }
  }
  const { buckets, wrongBy, ...counts } = t;
  return {
    sentences: labels.length,
    labelledFigures: t.labels,
    precision: ratio(t.factsRight, t.facts),
    recall: ratio(t.labelsFound, t.labels),
    recallCore: ratio(t.coreFound, t.core),
    recallKnownMetrics: ratio(t.knownFound, t.known),
    periodAccuracy: ratio(t.periodRight, t.factsRight),
    guidancePrecision: ratio(t.guidanceRight, t.guidanceFacts),
    guidanceRecall: ratio(t.guidanceFound, t.guidanceLabels),
    comparedWithConsensus: t.compared,
    comparedWrong: t.comparedWrong,
    unverifiedPrecision: ratio(t.unverifiedRight, t.unverified),
    calibration: Object.fromEntries(
      Object.entries(buckets)
        .sort()
        .map(([k, [n, right]]) => [k, { figures: n, precision: ratio(right, n) }]),
    ),
    counts,
    wrongBy: Object.fromEntries(Object.entries(wrongBy).sort((a, b) => b[1] - a[1])),
  };
}

function describe(f: LooseFigure): string {
  const seg = f.segment ? ` [${f.segment}]` : "";
  return `${f.metric}${seg} ${f.kind} ${f.value} ${f.unit} ${f.period ?? "-"}${f.isGuidance ? " g" : ""}${f.basis ? ` ${f.basis}` : ""} @${f.confidence}`;
}

const miss = (l: LabelledSentence, kind: FigureMiss["kind"], what: string): FigureMiss => ({
  file: l.file,
  turn: l.turn,
  offset: l.offset,
  kind,
  what: `${l.section === "q_and_a" ? "Q" : "P"} ${what}`,
});
