/**
 * The language evaluation's measures (docs/insights.md, "Evaluation on real calls"): figures against the labels,
 * the Q&A and speaker names against what the files say, the guidance alert against the labels, and the cost per
 * sentence. Every call goes through the code as a live call would: sentences in order under `OPERATOR` /
 * `SPEAKER_n` labels, no names until enrichment.
 */
import { performance } from "node:perf_hooks";
import type { CorpusCall, CorpusSentence } from "./corpus";
import type {
  EngineSentence,
  Implementation,
  LooseFigure,
  LooseInsights,
  Participant,
} from "./implementation";
import type { LabelFigure, LabelledSentence } from "./labels";

/** The metrics the issue counts as core: what an analyst's model takes first. */
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

const ratio = (n: number, d: number) => (d === 0 ? null : Math.round((n / d) * 1000) / 1000);

export function liveSentences(call: CorpusCall): EngineSentence[] {
  return call.sentences.map((s) => ({
    sequence: s.sequence,
    speaker: s.speaker,
    speakerName: null,
    startMs: s.startMs,
    endMs: s.endMs,
    text: s.text,
    sentiment: null,
  }));
}

export function enrichedSentences(call: CorpusCall): EngineSentence[] {
  return liveSentences(call).map((s, i) => ({ ...s, speakerName: call.sentences[i]!.person }));
}

export function participantsOf(call: CorpusCall): Participant[] {
  return call.participants.map((p) => ({
    name: p.name,
    role: p.isAnalyst ? "Analyst" : p.title,
    organization: p.firm,
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// Figures

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

// ---------------------------------------------------------------------------------------------------------------
// Q&A and speaker names

const normName = (s: string) =>
  s
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z\s-]/g, "")
    .replace(/\b(?:jr|sr|ii|iii|iv|dr|mr|mrs|ms|cfa)\b/g, "")
    .trim()
    .split(/[\s-]+/)
    .filter(Boolean);

const NICKNAMES = [
  ["robert", "bob", "rob", "bobby"],
  ["william", "bill", "will", "billy"],
  ["richard", "dick", "rick", "rich"],
  ["edward", "ted", "ed", "eddie"],
  ["margaret", "peggy", "meg"],
  ["elizabeth", "liz", "beth", "betsy"],
  ["charles", "chuck", "charlie"],
  ["james", "jim", "jimmy"],
  ["john", "jack"],
];
const sameGiven = (a: string, b: string) =>
  a[0] === b[0] || NICKNAMES.some((group) => group.includes(a) && group.includes(b));

/**
 * Same person: the same last name, and a given name that agrees — the same initial ("Chris" for "Christopher"), a
 * common nickname ("Bob" for "Robert"), or a middle name used as the first ("Kelly Wall" for "C. Kelly Wall").
 */
export function sameName(a: string | null | undefined, b: string): boolean {
  if (!a) return false;
  const x = normName(a);
  const y = normName(b);
  if (x.length < 2 || y.length < 2) return false;
  if (x.at(-1) !== y.at(-1)) return false;
  const givenX = x.slice(0, -1);
  const givenY = y.slice(0, -1);
  return (
    givenX.some((g) => givenY.some((h) => g.length > 1 && h.length > 1 && sameGiven(g, h))) ||
    sameGiven(x[0]!, y[0]!)
  );
}

const FIRM_NOISE =
  /\b(?:securities|security|capital|markets?|inc|llc|lp|llp|ltd|limited|co|company|companies|corp|corporation|group|partners|research|financial|the|and|international|advisors|advisory|management|sa|ag|plc|bank|holdings|investments?|asset|llc|usa|us|equity|equities)\b/g;
const normFirm = (s: string) =>
  s
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9\s]/g, "")
    .replace(FIRM_NOISE, " ")
    .replace(/\s+/g, "");

/** Names an operator uses for a firm that share nothing with its registered name. */
const FIRM_ALIASES = [
  ["bofa", "bankofamerica", "merrilllynch", "baml"],
  ["citi", "citigroup"],
  ["ms", "morganstanley"],
  ["gs", "goldmansachs", "goldman"],
  ["jpm", "jpmorgan", "jpmorganchase"],
  ["wells", "wellsfargo"],
];

const initials = (s: string) =>
  s
    .replace(/&/g, " ")
    .split(/[^A-Za-z]+/)
    .filter((w) => w.length > 0 && !/^(?:and|of|the|inc|llc|co|company)$/i.test(w))
    .map((w) => w[0]!.toLowerCase())
    .join("");

function editDistance(a: string, b: string): number {
  const d = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0]!;
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const keep = d[j]!;
      d[j] = Math.min(d[j]! + 1, d[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = keep;
    }
  }
  return d[b.length]!;
}

/**
 * The same firm, as an operator says it and as the participants list writes it: "J.P. Morgan" and "JPMorgan
 * Chase", "Evercore ISI" and "Evercore", "KBW" and "Keefe, Bruyette & Woods", "Baird" and "Robert W. Baird & Co.",
 * "BofA" and "Bank of America Merrill Lynch", a misspelling ("Jeferries").
 */
export function sameFirm(a: string | null | undefined, b: string): boolean {
  if (!a) return false;
  const x = normFirm(a);
  const y = normFirm(b);
  if (!x || !y) return a.trim().toLowerCase() === b.trim().toLowerCase();
  if (x.includes(y) || y.includes(x) || x.slice(0, 6) === y.slice(0, 6)) return true;
  const short = a.replace(/[^A-Za-z]/g, "").toLowerCase();
  const long = b.replace(/[^A-Za-z]/g, "").toLowerCase();
  if (FIRM_ALIASES.some((g) => g.some((n) => short.startsWith(n)) && g.some((n) => long.startsWith(n))))
    return true;
  if (short.length <= 4 && (initials(b).startsWith(short) || initials(a) === long)) return true;
  if (long.length <= 4 && initials(a).startsWith(long)) return true;
  return x.length >= 6 && y.length >= 6 && editDistance(x.slice(0, 9), y.slice(0, 9)) <= 2;
}

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

// ---------------------------------------------------------------------------------------------------------------
// Guidance alerts

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

// ---------------------------------------------------------------------------------------------------------------
// Cost

export interface CostReport {
  sentences: number;
  extractionPlusAlignment: { meanMs: number; p95Ms: number };
  engineIncremental: { meanMs: number; p95Ms: number };
  targetMs: number;
}

const statsOf = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mean = xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)] ?? 0;
  return { meanMs: Math.round(mean * 10_000) / 10_000, p95Ms: Math.round(p95 * 10_000) / 10_000 };
};

/**
 * Each call's sentences against the company's previous call in the corpus: extraction plus the BM25 alignment a
 * new sentence costs, and the whole engine step the call room pays per sentence (Q&A included). Fastest of three
 * rounds per sentence: on a shared machine the slow samples measure the neighbours.
 */
export function measureCost(
  impl: Implementation,
  pairs: { call: CorpusCall; previous: CorpusCall }[],
): CostReport {
  const extract: number[] = [];
  const engine: number[] = [];
  for (const { call, previous } of pairs) {
    const prevSentences = previous.sentences.map((s: CorpusSentence) => ({
      sequence: s.sequence,
      speaker: s.speaker,
      startMs: s.startMs,
      text: s.text,
    }));
    const index = impl.previousIndex(prevSentences);
    const live = liveSentences(call);
    const best = new Array<number>(live.length).fill(Infinity);
    const bestEngine = new Array<number>(live.length).fill(Infinity);
    for (let round = 0; round < 3; round++) {
      const e = impl.newEngine({
        consensus: { current: null, next: null },
        previousCall: {
          callId: previous.file,
          title: previous.file,
          startTime: "2020-01-01T00:00:00Z",
          period: null,
          year: null,
          segments: prevSentences,
        },
      });
      for (let i = 0; i < live.length; i++) {
        const s = live[i]!;
        const text = s.text;
        let t = performance.now();
        impl.extractFigures({ sequence: s.sequence, text, startMs: s.startMs });
        index.index.best(text);
        best[i] = Math.min(best[i]!, performance.now() - t);
        t = performance.now();
        e.compute({ sentences: live.slice(0, i + 1), isComplete: false });
        bestEngine[i] = Math.min(bestEngine[i]!, performance.now() - t);
      }
    }
    extract.push(...best);
    engine.push(...bestEngine);
  }
  return {
    sentences: extract.length,
    extractionPlusAlignment: statsOf(extract),
    engineIncremental: statsOf(engine),
    targetMs: 1,
  };
}
