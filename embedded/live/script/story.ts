/**
 * What carries over from one call of a company to the next (issue 15): the people (executives, with an
 * occasional announced change of CFO; the covering analysts), the recurring topics and how strongly each is
 * spoken of, risks that appear and fade, segment figures that move, and the guidance one call gives and the next
 * call answers.
 *
 * Everything is a pure function of the universe seed, the company and the fiscal quarter (an ordinal,
 * `year * 4 + quarter`), never of the call id or the clock: the story of a quarter is the same whether its call is
 * live, historical, or rebuilt after a restart, and the call of the next quarter can recompute the guidance it
 * answers. Quantities that drift (topic intensity, segment growth) are random walks whose steps are hashed from
 * the quarter, so neighbouring quarters stay close and distant ones wander.
 */
import type { Company, Executive } from "../../universe/types";
import type { WireEarningsRecord } from "../../universe/wire";
import { parseAmount } from "./figures";
import { rngFromLabel } from "../../universe/prng";
import { ANALYST_FIRMS, FIRST_NAMES, LAST_NAMES, type SectorProfile, type SectorTheme } from "./sectors";

/** Strongest first; the index is the level (4 = record). */
export const INTENSITY_WORDS = ["softer", "modest", "solid", "strong", "record"] as const;
export type IntensityWord = (typeof INTENSITY_WORDS)[number];

export interface Analyst {
  name: string;
  firm: string;
}

export interface TopicEmphasis {
  theme: SectorTheme;
  intensity: IntensityWord;
  /** The level one quarter earlier, so the script can say "improved from last quarter". */
  previous: IntensityWord;
}

export interface RiskMention {
  risk: string;
  /** New this quarter, still there, or gone after weighing on the previous quarter. */
  phase: "emerging" | "ongoing" | "easing";
}

export interface SegmentFigure {
  name: string;
  /** Share of the quarter's revenue, 0–1. */
  share: number;
  /** Year-over-year growth in percent. */
  growthPct: number;
}

/** Amounts as stated (rounded the way the CFO says them), so the next call compares with what was said. */
export interface Guidance {
  period: string;
  year: number;
  revenueLow: number;
  revenueHigh: number;
  epsLow: number | null;
  epsHigh: number | null;
  fullYear: { year: number; revenueLow: number; revenueHigh: number } | null;
}

export interface CfoChange {
  outgoing: Executive;
  incoming: Executive;
}

export interface QuarterStory {
  cfo: Executive;
  /** Announced on the outgoing CFO's last call. */
  cfoLeaving: CfoChange | null;
  /** The first call of a new CFO. */
  cfoJoined: boolean;
  /** Every analyst covering the company, in a stable order. */
  roster: Analyst[];
  topics: TopicEmphasis[];
  risks: RiskMention[];
  segments: SegmentFigure[];
  /** Given on this call for the next quarter; null without a next record. */
  guidance: Guidance | null;
  /** What the previous call guided for this quarter; null when there was no previous record. */
  priorGuidance: Guidance | null;
}

export interface StoryInput {
  seed: number;
  company: Company;
  profile: SectorProfile;
  record: WireEarningsRecord;
  nextRecord?: WireEarningsRecord | undefined;
  previousRecord?: WireEarningsRecord | undefined;
  /** +1 on a beat, −1 on a miss: a quarter that beat consensus is spoken of a notch more warmly. */
  bias: number;
}

const QUARTER_NUMBER: Record<string, number> = { Q1: 1, Q2: 2, Q3: 3, Q4: 4, H1: 2, H2: 4, FY: 4 };

export function quarterOrdinal(period: string, year: number): number {
  return year * 4 + (QUARTER_NUMBER[period] ?? 4) - 1;
}

/** The quarter the company profile's executives describe: CFOs before it are predecessors, after it successors. */
const REFERENCE_ORDINAL = quarterOrdinal("Q3", 2026);
/** A walk starts this many quarters back: long enough to wander, short enough to cost nothing. */
const WALK_QUARTERS = 12;

const RISKS: readonly string[] = [
  "foreign exchange",
  "supply chain constraints",
  "higher interest rates",
  "customer inventory digestion",
  "input cost inflation",
  "tariffs on imported components",
  "labor availability",
  "regulatory scrutiny",
  "softer consumer spending",
  "weather-related disruptions",
  "elevated freight costs",
  "delayed customer budgets",
];

function unit(seed: number, ...parts: (string | number)[]): number {
  return rngFromLabel(`story|${seed}|${parts.join("|")}`).next();
}

/** Sum of hashed steps in {-1, 0, 0, +1} over the quarters before `ordinal`, plus a hashed starting level. */
function walk(seed: number, key: string, ordinal: number, start: number): number {
  let level = start;
  for (let n = ordinal - WALK_QUARTERS + 1; n <= ordinal; n++) {
    const u = unit(seed, key, n);
    level += u < 0.25 ? -1 : u < 0.75 ? 0 : 1;
  }
  return level;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Three significant digits: what `formatMoney` prints, so stated and compared guidance agree. */
export function roundAsSpoken(amount: number): number {
  if (amount === 0) return 0;
  const magnitude = Math.floor(Math.log10(Math.abs(amount)));
  const step = 10 ** (magnitude - 2);
  return Math.round(amount / step) * step;
}

const cents = (v: number) => Math.round(v * 100) / 100;

// ---------- people

function personName(seed: number, ...parts: (string | number)[]): string {
  const rng = rngFromLabel(`story|${seed}|person|${parts.join("|")}`);
  return `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
}

/** Whether a new CFO takes office at `ordinal` (about one company in four sees one in a year of history). */
function cfoChangesAt(seed: number, symbol: string, ordinal: number): boolean {
  return unit(seed, symbol, "cfo-change", ordinal) < 0.06;
}

export function cfoAt(seed: number, company: Company, ordinal: number): Executive {
  const title = company.executives.cfo.title;
  let era = 0;
  if (ordinal > REFERENCE_ORDINAL) {
    for (let n = REFERENCE_ORDINAL + 1; n <= ordinal; n++) if (cfoChangesAt(seed, company.symbol, n)) era++;
  } else {
    for (let n = ordinal + 1; n <= REFERENCE_ORDINAL; n++) if (cfoChangesAt(seed, company.symbol, n)) era--;
  }
  if (era === 0) return company.executives.cfo;
  let name = personName(seed, company.symbol, "cfo", era);
  if (name === company.executives.cfo.name) name = personName(seed, company.symbol, "cfo", era, "again");
  return { name, title };
}

/**
 * Each firm has a bench of analysts, one per sector it covers, so an analyst follows several companies of one
 * sector, and a firm (the large ones more often) covers many companies.
 */
export function analystRoster(seed: number, company: Company): Analyst[] {
  const rng = rngFromLabel(`story|${seed}|roster|${company.symbol}`);
  const size = rng.int(3, 6);
  // Heavier weights on the first firms of a seed-shuffled list: a few houses cover much of the universe.
  const firms = rngFromLabel(`story|${seed}|firms`).shuffle(ANALYST_FIRMS);
  const weighted = firms.flatMap((firm, i) => Array<string>(i < 4 ? 4 : i < 8 ? 2 : 1).fill(firm));
  const chosen: string[] = [];
  while (chosen.length < size) {
    const firm = rng.pick(weighted);
    if (!chosen.includes(firm)) chosen.push(firm);
  }
  const names = new Set<string>();
  return chosen.map((firm) => {
    let name = personName(seed, "analyst", firm, company.sector);
    for (let k = 1; names.has(name); k++) name = personName(seed, "analyst", firm, company.sector, k);
    names.add(name);
    return { name, firm };
  });
}

// ---------- topics, risks, segments

function topicsOf(seed: number, company: Company, profile: SectorProfile, ordinal: number, bias: number) {
  const core = rngFromLabel(`story|${seed}|topics|${company.symbol}`)
    .shuffle(profile.themes)
    .slice(0, Math.min(3, profile.themes.length));
  const level = (theme: SectorTheme, n: number, b: number) => {
    const start = Math.floor(unit(seed, company.symbol, theme.topic, "start") * 3) + 1;
    return clamp(walk(seed, `${company.symbol}|${theme.topic}`, n, start) + b, 0, 4);
  };
  return core.map((theme) => ({
    theme,
    intensity: INTENSITY_WORDS[level(theme, ordinal, bias)] as IntensityWord,
    previous: INTENSITY_WORDS[level(theme, ordinal - 1, 0)] as IntensityWord,
  }));
}

/** A risk is active in episodes of two to four quarters; an episode's first quarter is its emergence. */
function riskActive(seed: number, symbol: string, risk: string, ordinal: number): boolean {
  const length = 2 + Math.floor(unit(seed, symbol, risk, "length") * 3);
  const phase = Math.floor(unit(seed, symbol, risk, "phase") * length);
  const episode = Math.floor((ordinal + phase) / length);
  return unit(seed, symbol, risk, "episode", episode) < 0.3;
}

function risksOf(seed: number, symbol: string, ordinal: number): RiskMention[] {
  const pool = rngFromLabel(`story|${seed}|risks|${symbol}`).shuffle(RISKS).slice(0, 5);
  const out: RiskMention[] = [];
  for (const risk of pool) {
    const now = riskActive(seed, symbol, risk, ordinal);
    const before = riskActive(seed, symbol, risk, ordinal - 1);
    if (now) out.push({ risk, phase: before ? "ongoing" : "emerging" });
    else if (before) out.push({ risk, phase: "easing" });
  }
  return out;
}

function segmentsOf(seed: number, company: Company, profile: SectorProfile, ordinal: number) {
  const names = rngFromLabel(`story|${seed}|segments|${company.symbol}`)
    .shuffle(profile.segments)
    .slice(0, 3);
  const weights = names.map((name, i) => {
    const base = [5, 3, 2][i] ?? 1;
    return Math.max(0.5, base + walk(seed, `${company.symbol}|${name}|share`, ordinal, 0) * 0.25);
  });
  const total = weights.reduce((s, w) => s + w, 0) * 1.08; // the rest is "other"
  return names.map((name, i) => ({
    name,
    share: (weights[i] as number) / total,
    growthPct: clamp(
      4 +
        walk(seed, `${company.symbol}|${name}|growth`, ordinal, Math.round(unit(seed, name, "g") * 6)) * 2.5,
      -15,
      40,
    ),
  }));
}

// ---------- guidance

/**
 * Guidance for `next`, given on the call about `record`: a revenue range whose midpoint is within ±3 % of the next
 * record's estimate (the consensus the sell side builds around it), sometimes EPS, sometimes the full year.
 */
export function guidanceFor(
  seed: number,
  symbol: string,
  record: WireEarningsRecord,
  next: WireEarningsRecord,
): Guidance | null {
  const revenueEst = parseAmount(next.revenue_est);
  if (revenueEst === null || revenueEst <= 0) return null;
  const rng = rngFromLabel(`story|${seed}|guidance|${symbol}|${record.period}|${record.period_year}`);
  const mid = revenueEst * (1 + (rng.next() * 6 - 3) / 100);
  const half = mid * rng.pick([0.01, 0.015, 0.02, 0.025]);
  const epsEst = parseAmount(next.eps_est);
  // Cent rounding of a small EPS range would move its midpoint by more than the ±5 % the guidance keeps to.
  const withEps = epsEst !== null && epsEst >= 0.4 && rng.chance(0.65);
  const epsMid = withEps ? epsEst * (1 + (rng.next() * 5 - 2.5) / 100) : 0;
  const epsHalf = withEps ? Math.max(0.01, cents(epsMid * rng.pick([0.02, 0.03, 0.04]))) : 0;
  const fullYear =
    rng.chance(0.35) && next.period !== "Q1"
      ? {
          year: next.period_year,
          // The remaining quarters at roughly the guided run rate, plus what has been reported so far.
          revenueLow: roundAsSpoken((mid - half) * 4 * (1 + rng.int(-2, 3) / 100)),
          revenueHigh: 0,
        }
      : null;
  if (fullYear)
    fullYear.revenueHigh = roundAsSpoken(fullYear.revenueLow * (1 + rng.pick([0.03, 0.04, 0.05])));
  return {
    period: next.period,
    year: next.period_year,
    revenueLow: roundAsSpoken(mid - half),
    revenueHigh: roundAsSpoken(mid + half),
    epsLow: withEps ? cents(epsMid - epsHalf) : null,
    epsHigh: withEps ? cents(epsMid + epsHalf) : null,
    fullYear,
  };
}

export function buildQuarterStory(input: StoryInput): QuarterStory {
  const { seed, company, profile, record } = input;
  const ordinal = quarterOrdinal(record.period, record.period_year);
  const cfo = cfoAt(seed, company, ordinal);
  const nextCfo = cfoAt(seed, company, ordinal + 1);
  const previousCfo = cfoAt(seed, company, ordinal - 1);
  return {
    cfo,
    cfoLeaving: nextCfo.name === cfo.name ? null : { outgoing: cfo, incoming: nextCfo },
    cfoJoined: previousCfo.name !== cfo.name,
    roster: analystRoster(seed, company),
    topics: topicsOf(seed, company, profile, ordinal, input.bias),
    risks: risksOf(seed, company.symbol, ordinal),
    segments: segmentsOf(seed, company, profile, ordinal),
    guidance: input.nextRecord ? guidanceFor(seed, company.symbol, record, input.nextRecord) : null,
    priorGuidance: input.previousRecord
      ? guidanceFor(seed, company.symbol, input.previousRecord, record)
      : null,
  };
}
