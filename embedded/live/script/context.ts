/**
 * What every section of a call's script draws on, worked out once per call: the record's figures and tone, the
 * quarter's story (people, topics, segments, guidance), the greeting for the hour, the template slots and the
 * random stream. Each section forks its own streams from `rng` by name, so the order sections are written in
 * does not change what they say.
 */
import type { Company, Executive } from "../../universe/types";
import type { WireEarningsRecord } from "../../universe/wire";
import { formatMoney, formatPercent, formatPerShare, periodWords } from "./figures";
import { basisOf, changeWords, figuresOf, toneOf, type Figures } from "./record-figures";
import { rngFromLabel, type Rng } from "../../universe/prng";
import { sectorProfileFor, type SectorProfile, type SectorTheme } from "./sectors";
import { buildQuarterStory, type QuarterStory, type TopicEmphasis } from "./story";
import type { ScriptInput, Tone } from "./types";

/** From here on a call always says what carries over between quarters (see `generateScript`). */
export const RICH_CALL_SECONDS = 300;

export interface CallContext {
  input: ScriptInput;
  company: Company;
  record: WireEarningsRecord;
  rng: Rng;
  tone: Tone;
  fig: Figures;
  profile: SectorProfile;
  /** "third quarter" */
  quarter: string;
  year: number;
  /** "morning", "afternoon" or "evening" in New York when the call starts. */
  greeting: string;
  story: QuarterStory;
  ceo: Executive;
  ir: Executive;
  cfo: Executive;
  /** The company's business lines, its own first in a stable order, then its sector's. */
  segments: string[];
  seg: string;
  seg2: string;
  /** Template slots ({short}, {seg}, {pct}, …), drawn from the stream given. */
  slots: (r: Rng) => Record<string, string>;
  /** The recurring topics of the quarter, in this call's order. */
  topics: TopicEmphasis[];
  /** Every theme of the sector, the recurring ones first. */
  themes: SectorTheme[];
  targetSeconds: number;
  /** Long enough to say everything that carries over (`RICH_CALL_SECONDS`). */
  rich: boolean;
  revenueSentence(): string;
  epsSentence(): string;
}

export function callContext(input: ScriptInput, greetingHour: number): CallContext {
  const { company, record, callId } = input;
  const rng = rngFromLabel(`call-script|${callId}`);
  const tone = toneOf(record);
  const fig = figuresOf(record);
  const profile = sectorProfileFor(company.sector, company.industryGroup, company.industry);
  const quarter = periodWords(record.period);
  const greeting = greetingHour < 12 ? "morning" : greetingHour < 18 ? "afternoon" : "evening";
  const story = buildQuarterStory({
    seed: input.seed ?? 0,
    company,
    profile,
    record,
    nextRecord: input.nextRecord,
    previousRecord: input.previousRecord,
    bias: tone === "beat" ? 1 : tone === "miss" ? -1 : 0,
  });
  const segments = [
    ...story.segments.map((s) => s.name),
    ...profile.segments.filter((name) => !story.segments.some((s) => s.name === name)),
  ];
  const seg = segments[0] ?? "core";
  const seg2 = segments[1] ?? seg;
  const year = record.period_year;
  const slots = (r: Rng): Record<string, string> => ({
    short: company.shortName,
    seg: r.pick(segments.slice(0, 3)),
    seg2,
    quarter,
    year: String(year),
    pct: `${r.int(3, 18)}%`,
    pct2: `${r.int(55, 92)}%`,
    trend:
      tone === "beat"
        ? r.pick(["accelerated", "strengthened", "was stronger than we expected", "improved meaningfully"])
        : tone === "miss"
          ? r.pick(["softened", "was weaker than we expected", "slowed", "came under pressure"])
          : r.pick(["remained steady", "held up well", "was broadly stable", "improved modestly"]),
    adj:
      tone === "beat"
        ? r.pick(["very encouraging", "strong", "excellent", "better than expected"])
        : tone === "miss"
          ? r.pick(["mixed", "uneven", "below our expectations", "more challenging"])
          : r.pick(["solid", "healthy", "consistent", "stable"]),
  });
  // Recurring topics lead, in an order that changes from call to call; the rest of the sector's themes follow.
  const topics = rng.fork("themes").shuffle(story.topics);
  const themes = [
    ...topics.map((t) => t.theme),
    ...rng.fork("other-themes").shuffle(profile.themes.filter((t) => !topics.some((x) => x.theme === t))),
  ];
  const targetSeconds = Math.max(5, input.targetSeconds);
  return {
    input,
    company,
    record,
    rng,
    tone,
    fig,
    profile,
    quarter,
    year,
    greeting,
    story,
    ceo: company.executives.ceo,
    ir: company.executives.ir,
    cfo: story.cfo,
    segments,
    seg,
    seg2,
    slots,
    topics,
    themes,
    targetSeconds,
    rich: targetSeconds >= RICH_CALL_SECONDS,
    revenueSentence: () => {
      if (fig.revenue === null) return `We do not break out revenue for the ${quarter} on this call.`;
      const change = changeWords(fig.revenue, fig.revenuePrior);
      const base = `Revenue for the ${quarter} was ${formatMoney(fig.revenue)}`;
      return change ? `${base}, ${change.dir} ${formatPercent(change.pct)} year over year.` : `${base}.`;
    },
    epsSentence: () => {
      if (fig.eps === null) return `We are not reporting earnings per share for the ${quarter} on this call.`;
      const prior =
        fig.epsPrior === null
          ? ""
          : fig.epsPrior < 0
            ? `, compared with a loss of ${formatPerShare(fig.epsPrior)} a year ago`
            : `, compared with ${formatPerShare(fig.epsPrior)} a year ago`;
      // The quarter named, as CFOs say it: the call room compares only a figure its sentence places in the
      // calendar's quarter (docs/insights.md, "Consensus").
      const main =
        fig.eps < 0
          ? `For the ${quarter}, on ${basisOf(fig.epsLabel)} basis, we reported a loss of ${formatPerShare(fig.eps)} per share`
          : `For the ${quarter}, ${fig.epsLabel} were ${formatPerShare(fig.eps)}`;
      return `${main}${prior}.`;
    },
  };
}
