/**
 * Earnings-call scripts: operator introduction, safe harbour, CEO remarks, CFO financials, guidance, Q&A and the
 * operator close, sized to the call's planned duration and deterministic by `call_id`.
 *
 * The CFO states the EPS and revenue of the calendar record the call is about (docs/upstream.md §7), in transcript form.
 * Tone follows the record's surprises: a beat sounds confident, a miss sounds contrite, in line sounds measured.
 * Speakers carry diarization labels assigned in order of first appearance (OPERATOR, SPEAKER_1, …), as a live
 * diarizer would; the real names are only handed to enrichment through `speakers`.
 */
import type { Company, Executive } from "../../universe/types";
import type { WireEarningsRecord } from "../../universe/wire";
import type { EnrichmentSpeaker } from "../enrichment/types";
import { formatMoney, formatPercent, formatPerShare, parseAmount, periodWords } from "./figures";
import { createScriptRng, type ScriptRng } from "./rng";
import { sectorProfileFor, type SectorProfile, type SectorTheme } from "./sectors";
import {
  buildQuarterStory,
  quarterOrdinal,
  roundAsSpoken,
  type Analyst,
  type Guidance,
  type QuarterStory,
  type TopicEmphasis,
} from "./story";

export type Tone = "beat" | "miss" | "inline";
export type ScriptSection = "intro" | "safe_harbor" | "ceo" | "cfo" | "guidance" | "qa" | "close";

export interface ScriptSentence {
  /** Diarization label: "OPERATOR", "SPEAKER_1", … */
  speakerLabel: string;
  text: string;
  section: ScriptSection;
}

export interface CallScript {
  callId: string;
  title: string;
  tone: Tone;
  period: string;
  year: number;
  speakers: EnrichmentSpeaker[];
  sentences: ScriptSentence[];
  /** Index of the operator's final lines: ending a call early skips straight to here. */
  closeIndex: number;
}

export interface ScriptInput {
  callId: string;
  company: Company;
  /** The calendar record the call reports on; its EPS and revenue are stated by the CFO. */
  record: WireEarningsRecord;
  /** The company's following record, if any: its estimates anchor the guidance. */
  nextRecord?: WireEarningsRecord;
  startTime: Date;
  /** Planned length of the spoken call. */
  targetSeconds: number;
  /** The company's previous record: the guidance its call gave is what this call reports against. */
  previousRecord?: WireEarningsRecord | undefined;
  /** Seed of the universe: the quarter's story (people, topics, guidance) derives from it, not from `callId`. */
  seed?: number;
}

/**
 * Rough spoken length of a sentence with its pause. Figures expand when read ("$4.2 billion" is five spoken
 * words), hence the weight on tokens with digits. Calibrated against the speech engine's default rate (~175 wpm).
 */
export function estimateSpeechSeconds(text: string): number {
  // A character loop, not split + regex: scripts are sized by calling this thousands of times per call.
  let words = 0;
  let inWord = false;
  let hasDigit = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) {
      if (inWord) words += hasDigit ? 3 : 1;
      inWord = false;
      hasDigit = false;
    } else {
      inWord = true;
      if (c >= 48 && c <= 57) hasDigit = true;
    }
  }
  if (inWord) words += hasDigit ? 3 : 1;
  return words * 0.36 + 0.7;
}

export function callTitle(period: string, year: number, company: Company): string {
  return `${period} ${year} ${company.shortName} (${company.symbol}) Earnings Conference Call`;
}

interface Figures {
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

function figuresOf(record: WireEarningsRecord): Figures {
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

type Role = "operator" | "ir" | "ceo" | "cfo" | `analyst:${number}`;

interface Line {
  role: Role;
  text: string;
  section: ScriptSection;
  /** Kept whatever the budget (handoffs, the figures). */
  keep?: boolean;
}

function fill(template: string, slots: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => slots[key] ?? whole);
}

/** "Halvorsen & Co." ends its own sentence; "Crestline Research" needs the full stop. */
function sentenceEnd(phrase: string): string {
  return phrase.endsWith(".") ? phrase : `${phrase}.`;
}

function firstName(full: string): string {
  return full.split(" ")[0] ?? full;
}

const EASTERN_HOUR = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/New_York",
  hour: "numeric",
  hourCycle: "h23",
});

function easternHour(date: Date): number {
  return Number(EASTERN_HOUR.format(date));
}

function changeWords(current: number, prior: number | null): { pct: number; dir: "up" | "down" } | null {
  if (prior === null || prior === 0 || current === 0) return null;
  const pct = ((current - prior) / Math.abs(prior)) * 100;
  if (!Number.isFinite(pct) || Math.abs(pct) > 500) return null;
  return { pct, dir: pct >= 0 ? "up" : "down" };
}

/** Lines kept in order: every `keep` line plus as many others as fit the budget. */
function trimToBudget(lines: readonly Line[], budgetSeconds: number): Line[] {
  let used = lines.filter((l) => l.keep).reduce((s, l) => s + estimateSpeechSeconds(l.text), 0);
  const out: Line[] = [];
  for (const line of lines) {
    if (line.keep) {
      out.push(line);
      continue;
    }
    const cost = estimateSpeechSeconds(line.text);
    if (used + cost <= budgetSeconds) {
      out.push(line);
      used += cost;
    }
  }
  return out;
}

const cost = (lines: readonly Line[]) => lines.reduce((s, l) => s + estimateSpeechSeconds(l.text), 0);

export function generateScript(input: ScriptInput): CallScript {
  const { company, record, callId } = input;
  const rng = createScriptRng(`call-script|${callId}`);
  const tone = toneOf(record);
  const fig = figuresOf(record);
  const profile = sectorProfileFor(company.sector, company.industryGroup, company.industry);
  const quarter = periodWords(record.period);
  const year = record.period_year;
  const hour = easternHour(input.startTime);
  const greeting = hour < 12 ? "morning" : hour < 18 ? "afternoon" : "evening";
  const story = buildQuarterStory({
    seed: input.seed ?? 0,
    company,
    profile,
    record,
    nextRecord: input.nextRecord,
    previousRecord: input.previousRecord,
    bias: tone === "beat" ? 1 : tone === "miss" ? -1 : 0,
  });
  const { ceo, ir } = company.executives;
  const cfo = story.cfo;
  // The company's own business lines first, in a stable order, so the same segments recur call after call.
  const segments = [
    ...story.segments.map((s) => s.name),
    ...profile.segments.filter((name) => !story.segments.some((s) => s.name === name)),
  ];
  const seg = segments[0] ?? "core";
  const seg2 = segments[1] ?? seg;
  const toneRng = rng.fork("tone");
  const slots = (r: ScriptRng): Record<string, string> => ({
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
  const remarkThemes = topics.map((t) => t.theme);

  const targetSeconds = Math.max(5, input.targetSeconds);
  const revenueSentence = (): string => {
    if (fig.revenue === null) return `We do not break out revenue for the ${quarter} on this call.`;
    const change = changeWords(fig.revenue, fig.revenuePrior);
    const base = `Revenue for the ${quarter} was ${formatMoney(fig.revenue)}`;
    return change ? `${base}, ${change.dir} ${formatPercent(change.pct)} year over year.` : `${base}.`;
  };
  const epsSentence = (): string => {
    if (fig.eps === null) return `We are not reporting earnings per share for the ${quarter} on this call.`;
    const prior =
      fig.epsPrior === null
        ? ""
        : fig.epsPrior < 0
          ? `, compared with a loss of ${formatPerShare(fig.epsPrior)} a year ago`
          : `, compared with ${formatPerShare(fig.epsPrior)} a year ago`;
    const main =
      fig.eps < 0
        ? `On ${basisOf(fig.epsLabel)} basis, we reported a loss of ${formatPerShare(fig.eps)} per share`
        : `${capitalize(fig.epsLabel)} were ${formatPerShare(fig.eps)}`;
    return `${main}${prior}.`;
  };

  // ---- Short calls (control API, realigned scheduler slots): a script built to fit, see `shortScript`.
  if (targetSeconds < SHORT_CALL_SECONDS) {
    return shortScript(input, tone, fig, { quarter, year, greeting, revenueSentence, epsSentence, story });
  }

  // From five minutes on, what carries over between quarters (emphasis, guidance given and answered, a segment,
  // a risk, a change of CFO) is always said; shorter calls fit it in as their budget allows.
  const rich = targetSeconds >= RICH_CALL_SECONDS;

  // ---- Operator introduction.
  const intro: Line[] = [
    {
      role: "operator",
      text: `Good ${greeting}, and welcome to the ${company.shortName} ${quarter} ${year} earnings conference call.`,
      section: "intro",
      keep: true,
    },
    {
      role: "operator",
      text: "At this time, all participants are in a listen-only mode. After the speakers' presentation, there will be a question-and-answer session.",
      section: "intro",
    },
    {
      role: "operator",
      text: "Please be advised that today's conference is being recorded.",
      section: "intro",
    },
    {
      role: "operator",
      text: `I would now like to hand the conference over to ${ir.name}, ${ir.title}. Please go ahead.`,
      section: "intro",
      keep: true,
    },
  ];

  // ---- Investor relations and safe harbour.
  const safeHarbor: Line[] = [
    {
      role: "ir",
      text: `Thank you, operator, and good ${greeting}, everyone.`,
      section: "safe_harbor",
      keep: true,
    },
    {
      role: "ir",
      text: story.cfoJoined
        ? `Joining me today are ${ceo.name}, our ${ceo.title}, and ${cfo.name}, who joined us as ${cfo.title} this quarter.`
        : `Joining me today are ${ceo.name}, our ${ceo.title}, and ${cfo.name}, our ${cfo.title}.`,
      section: "safe_harbor",
      keep: story.cfoJoined && rich,
    },
    {
      role: "ir",
      text: "Before we begin, let me remind you that today's discussion contains forward-looking statements based on our current expectations.",
      section: "safe_harbor",
      keep: true,
    },
    {
      role: "ir",
      text: "Actual results may differ materially because of risks and uncertainties described in our filings with the Securities and Exchange Commission.",
      section: "safe_harbor",
    },
    {
      role: "ir",
      text: "We will also refer to non-GAAP financial measures; reconciliations to the most comparable GAAP measures are in our earnings release.",
      section: "safe_harbor",
    },
    {
      role: "ir",
      text: `With that, I'll turn the call over to ${firstName(ceo.name)}.`,
      section: "safe_harbor",
      keep: true,
    },
  ];

  // ---- CEO remarks.
  const ceoOpen =
    tone === "beat"
      ? toneRng.pick([
          `We delivered an excellent ${quarter}, with results ahead of our expectations on both the top and bottom line.`,
          `This was a record ${quarter} for ${company.shortName}, and our teams executed exceptionally well.`,
          `I'm very pleased with our performance this quarter, which exceeded the outlook we gave you ninety days ago.`,
        ])
      : tone === "miss"
        ? toneRng.pick([
            `This was a difficult ${quarter}, and our results fell short of what we expected.`,
            `Our performance this quarter was disappointing, and I want to be direct about what happened.`,
            `We faced meaningful headwinds in the ${quarter}, and our results came in below our own expectations.`,
          ])
        : toneRng.pick([
            `We delivered a solid ${quarter}, in line with the outlook we shared last quarter.`,
            `Our results this quarter were consistent with our plan, and the business remains on track.`,
            `The ${quarter} played out largely as we expected, with steady execution across the company.`,
          ]);
  const ceoLines: Line[] = [
    {
      role: "ceo",
      text: `Thank you, ${firstName(ir.name)}, and thank you all for joining us.`,
      section: "ceo",
      keep: true,
    },
    { role: "ceo", text: ceoOpen, section: "ceo", keep: true },
  ];
  if (story.cfoLeaving) {
    const { outgoing, incoming } = story.cfoLeaving;
    ceoLines.push(
      {
        role: "ceo",
        text: `Before we get into the results, as we announced last week, this will be ${outgoing.name}'s last earnings call as our ${outgoing.title}.`,
        section: "ceo",
        keep: rich,
      },
      {
        role: "ceo",
        text: `${incoming.name} will succeed ${firstName(outgoing.name)} at the start of next quarter, and I want to thank ${firstName(outgoing.name)} for years of partnership.`,
        section: "ceo",
        keep: rich,
      },
    );
  }
  // One sentence per recurring topic carries its emphasis word, always spoken: it is what moves between quarters.
  const emphasisRng = rng.fork("emphasis");
  for (const topic of topics)
    ceoLines.push({ role: "ceo", text: emphasisSentence(topic, emphasisRng), section: "ceo", keep: rich });
  if (fig.revenue !== null) {
    const change = changeWords(fig.revenue, fig.revenuePrior);
    ceoLines.push({
      role: "ceo",
      text: change
        ? `Revenue reached ${formatMoney(fig.revenue)}, ${change.dir} ${formatPercent(change.pct)} year over year.`
        : `Revenue reached ${formatMoney(fig.revenue)} for the quarter.`,
      section: "ceo",
    });
  }
  const toneLines =
    tone === "beat"
      ? [
          "Execution across the organization was excellent, and I want to thank our employees for their hard work.",
          "We are entering the next quarter with strong momentum and a healthy pipeline.",
        ]
      : tone === "miss"
        ? [
            `Several factors weighed on results, including softer demand in ${seg} and higher costs than we planned.`,
            "We are not satisfied with these results, and we have already begun to address them, including a review of our cost structure.",
            "I am confident the actions we are taking will put us back on track over the coming quarters.",
          ]
        : [
            "Overall, the business performed as we expected, and our priorities remain unchanged.",
            "We continue to balance investment for growth with discipline on costs.",
          ];
  for (const theme of remarkThemes) {
    const r = rng.fork(`remarks:${theme.topic}`);
    // Two of a theme's remarks, chosen per call: the topic recurs, its wording shifts.
    for (const t of r.shuffle(theme.remarks).slice(0, 2))
      ceoLines.push({ role: "ceo", text: fill(t, slots(r)), section: "ceo" });
  }
  for (const t of toneLines) ceoLines.push({ role: "ceo", text: t, section: "ceo" });
  const genericCeo = rng
    .fork("ceo-generic")
    .shuffle([
      `Our strategy remains focused on three priorities: growing our ${seg} business, expanding into adjacent markets, and improving operating efficiency.`,
      `In ${seg2}, we signed several new multi-year agreements with large customers during the quarter.`,
      "We continued to invest in our people and our technology, and we launched several new products.",
      "Our balance sheet gives us the flexibility to keep investing through the cycle while returning capital to shareholders.",
      "We also made progress on our sustainability goals, reducing the emissions intensity of our operations.",
      `Customer feedback on our latest ${seg} offerings has been ${slots(rng.fork("ceo-adj")).adj}.`,
    ]);
  for (const t of genericCeo) ceoLines.push({ role: "ceo", text: t, section: "ceo" });
  ceoLines.push({
    role: "ceo",
    text: `With that, let me turn it over to ${firstName(cfo.name)} to walk through the financials.`,
    section: "ceo",
    keep: true,
  });

  // ---- CFO financials.
  const fr = rng.fork("cfo");
  const revenue = fig.revenue ?? 1e9;
  const grossMargin = fr.int(28, 72) + fr.int(0, 9) / 10;
  const opMargin = Math.max(4, grossMargin - fr.int(12, 30));
  const cfoLines: Line[] = [
    {
      role: "cfo",
      text: `Thanks, ${firstName(ceo.name)}, and good ${greeting}, everyone.`,
      section: "cfo",
      keep: true,
    },
    { role: "cfo", text: revenueSentence(), section: "cfo", keep: true },
    { role: "cfo", text: epsSentence(), section: "cfo", keep: true },
  ];
  if (fig.hasActuals && story.priorGuidance)
    for (const text of againstGuidance(fig, story.priorGuidance))
      cfoLines.push({ role: "cfo", text, section: "cfo", keep: rich });
  if (fig.hasActuals && fig.epsEst !== null && fig.eps !== null) {
    cfoLines.push({
      role: "cfo",
      text:
        tone === "beat"
          ? "Both revenue and earnings per share came in ahead of consensus expectations."
          : tone === "miss"
            ? "Earnings per share were below our expectations, reflecting lower volumes and cost pressures that we did not fully offset."
            : "Results were in line with our expectations on both revenue and earnings.",
      section: "cfo",
    });
  }
  story.segments.forEach((segment, i) => {
    const amount = revenue * segment.share;
    const dir = segment.growthPct >= 0 ? "up" : "down";
    cfoLines.push({
      role: "cfo",
      text: `${capitalize(segment.name)} revenue was ${formatMoney(amount)}, ${dir} ${formatPercent(segment.growthPct)} year over year, and represented ${Math.round(segment.share * 100)}% of total revenue.`,
      section: "cfo",
      keep: rich && i === 0,
    });
  });
  story.risks.forEach((mention, i) => {
    cfoLines.push({ role: "cfo", text: riskSentence(mention), section: "cfo", keep: rich && i === 0 });
  });
  const cfoExtra = [
    `Gross margin was ${grossMargin.toFixed(1)}%, ${tone === "miss" ? "down" : "up"} ${fr.int(20, 180)} basis points from a year ago.`,
    `Operating expenses were ${formatMoney((revenue * (grossMargin - opMargin)) / 100)}, reflecting continued investment in growth and discipline elsewhere.`,
    `Operating margin was ${opMargin.toFixed(1)}%.`,
    `Our effective tax rate was ${fr.int(14, 24)}%.`,
    `Operating cash flow was ${formatMoney((revenue * fr.int(12, 25)) / 100)}, and free cash flow was ${formatMoney((revenue * fr.int(5, 11)) / 100)}.`,
    `Capital expenditures were ${formatMoney((revenue * fr.int(3, 8)) / 100)}, in line with our plan.`,
    `We ended the quarter with ${formatMoney((revenue * fr.int(40, 120)) / 100)} in cash and investments.`,
    `During the quarter, we returned ${formatMoney((revenue * fr.int(3, 9)) / 100)} to shareholders through dividends and share repurchases.`,
  ];
  for (const t of cfoExtra) cfoLines.push({ role: "cfo", text: t, section: "cfo" });

  // ---- Guidance: anchored on the next record's estimates when there is one.
  const guidance: Line[] = [];
  guidance.push({ role: "cfo", text: "Turning to our outlook.", section: "guidance" });
  const given = story.guidance;
  if (given)
    for (const text of guidanceSentences(given, fig.epsLabel))
      guidance.push({ role: "cfo", text, section: "guidance", keep: rich });
  if (!given?.fullYear)
    guidance.push({
      role: "cfo",
      text:
        tone === "beat"
          ? "Given the strength we saw this quarter, we are raising our full-year outlook."
          : tone === "miss"
            ? "We are lowering our full-year outlook to reflect the softer demand environment."
            : "We are reaffirming our full-year outlook.",
      section: "guidance",
    });
  guidance.push({
    role: "cfo",
    text: "With that, operator, please open the line for questions.",
    section: "guidance",
    keep: true,
  });

  // ---- Close (built first: the budget must reserve it).
  const closing: Line[] = [
    {
      role: "operator",
      text: `There are no further questions at this time. I'll turn the call back over to ${ceo.name} for closing remarks.`,
      section: "close",
    },
    {
      role: "ceo",
      text:
        tone === "beat"
          ? "Thank you all for joining us. We are proud of this quarter and excited about the opportunities ahead."
          : tone === "miss"
            ? "Thank you for joining us. We know we have work to do, and we look forward to showing you progress next quarter."
            : "Thank you for joining us today. We look forward to updating you on our progress next quarter.",
      section: "close",
    },
  ];
  const finalLines: Line[] = [
    {
      role: "operator",
      text: "This concludes today's conference call. Thank you for participating. You may now disconnect.",
      section: "close",
      keep: true,
    },
  ];

  // ---- Budget: fixed parts first, prepared remarks next, Q&A takes what is left.
  const fixedIntro = trimToBudget(intro, targetSeconds * 0.06);
  const fixedSafe = trimToBudget(safeHarbor, targetSeconds * 0.07);
  const closeCost = cost(closing) + cost(finalLines);
  const remaining = Math.max(0, targetSeconds - cost(fixedIntro) - cost(fixedSafe) - closeCost);
  const ceoKept = trimToBudget(ceoLines, remaining * 0.27);
  const cfoKept = trimToBudget(cfoLines, remaining * 0.25);
  const guidanceKept = trimToBudget(guidance, remaining * 0.08);
  let qaBudget = remaining - cost(ceoKept) - cost(cfoKept) - cost(guidanceKept);

  const qa = buildQa({
    rng: rng.fork("qa"),
    profile,
    themes,
    tone,
    slots,
    seg,
    fig,
    budget: qaBudget,
    roster: story.roster,
    ordinal: quarterOrdinal(record.period, record.period_year),
  });
  qaBudget -= cost(qa.lines);

  // Without a Q&A the CFO cannot hand over to questions; the prepared remarks end the call instead.
  const guidanceSpoken =
    qa.lines.length > 0
      ? guidanceKept
      : [
          ...guidanceKept.slice(0, -1),
          {
            role: "cfo" as const,
            text: "That concludes our prepared remarks.",
            section: "guidance" as const,
          },
        ];
  const lines = [
    ...fixedIntro,
    ...fixedSafe,
    ...ceoKept,
    ...cfoKept,
    ...guidanceSpoken,
    ...qa.lines,
    ...(qa.lines.length > 0 ? closing : closing.slice(1)),
  ];
  const closeIndex = lines.length;
  lines.push(...finalLines);
  return assemble(input, tone, lines, closeIndex, qa.analysts, cfo);
}

/** From here on a call always says what carries over between quarters (see `generateScript`). */
const RICH_CALL_SECONDS = 300;

/** Below this, `shortScript` builds the call; from here on the full structure fits. */
export const SHORT_CALL_SECONDS = 60;

/**
 * Spoken length without pauses, for fitting short calls, calibrated on the eSpeak voices: a word costs by its
 * letters, an acronym is spelled out, a figure ("$4.21", "12%") is read as several words. Errs long: the runtime
 * pads a call that comes out short, but cannot shorten the sentences it must say.
 */
export function spokenSecondsEstimate(text: string): number {
  let seconds = 0;
  for (const token of text.split(/\s+/)) {
    const word = token.replace(/[^\p{L}\p{N}$%.']/gu, "");
    if (word === "") continue;
    const digits = word.replace(/\D/g, "").length;
    if (digits > 0) seconds += 0.6 + 0.35 * Math.min(digits, 6);
    else if (/^[A-Z]{2,5}$/.test(word)) seconds += 0.25 * word.length;
    else seconds += 0.12 + 0.045 * word.length;
  }
  return seconds;
}

/** Short calls' runtime overhead besides speech (call.ts): lead-in plus trail, and the pause before a sentence. */
export function shortCallOverheadSeconds(targetSeconds: number, sentenceCount: number): number {
  const pause = targetSeconds < 20 ? 0.35 : 0.55;
  return Math.min(1.2, Math.max(0.2, targetSeconds * 0.02)) + 0.3 + pause * Math.max(0, sentenceCount - 1);
}

interface ShortParts {
  quarter: string;
  year: number;
  greeting: string;
  revenueSentence: () => string;
  epsSentence: () => string;
  story: QuarterStory;
}

/**
 * Scripts for calls under a minute. Always: the operator's welcome, the CFO stating revenue and EPS (one combined
 * sentence when the call is too short for two), the operator's close. Then, step by step in order of value, each
 * step kept only if the estimate still fits the requested duration: the CFO's handover and greeting, the figures
 * in full, a fuller welcome and close, the verdict against expectations, the outlook. A call that comes out
 * short is padded with a pause at the end by the runtime, so the sizing errs short.
 */
function shortScript(input: ScriptInput, tone: Tone, fig: Figures, parts: ShortParts): CallScript {
  const { company, record } = input;
  const cfo = parts.story.cfo;
  const target = Math.max(5, input.targetSeconds);
  const money = fig.revenue === null ? null : formatMoney(fig.revenue);
  const perShare = fig.eps === null ? null : `${fig.eps < 0 ? "a loss of " : ""}${formatPerShare(fig.eps)}`;
  const combined =
    money !== null && perShare !== null
      ? `Revenue was ${money}, and EPS was ${perShare}.`
      : money !== null
        ? `Revenue was ${money}.`
        : perShare !== null
          ? `EPS was ${perShare}.`
          : `We are not reporting figures for the ${parts.quarter} on this call.`;
  const given = parts.story.guidance;
  const verdict =
    !fig.hasActuals || fig.epsEst === null || fig.eps === null
      ? null
      : tone === "beat"
        ? "Both revenue and earnings per share came in above our expectations."
        : tone === "miss"
          ? "Earnings per share were below our expectations, reflecting lower volumes and cost pressures."
          : "Results were in line with our expectations on both revenue and earnings.";
  const outlook =
    tone === "beat"
      ? "Given this strength, we are raising our full-year outlook."
      : tone === "miss"
        ? "We are lowering our full-year outlook to reflect softer demand."
        : "We are reaffirming our full-year outlook.";

  const op = (text: string, section: ScriptSection): Line[] => [{ role: "operator", text, section }];
  const said = (text: string, section: ScriptSection): Line[] => [{ role: "cfo", text, section }];
  // Slots in script order; a step fills or replaces one.
  const order = [
    "welcome",
    "handover",
    "greeting",
    "figures",
    "verdict",
    "guide-revenue",
    "guide-eps",
    "outlook",
    "remarks-end",
    "close",
  ] as const;
  type Key = (typeof order)[number];
  const chosen = new Map<Key, Line[]>();
  const current = () => order.flatMap((k) => chosen.get(k) ?? []);
  const fits = () => {
    const lines = current();
    const speech = lines.reduce((s, l) => s + spokenSecondsEstimate(l.text), 0);
    return speech + shortCallOverheadSeconds(target, lines.length) <= target;
  };
  const step = (key: Key, lines: Line[]) => {
    const before = chosen.get(key);
    chosen.set(key, lines);
    if (fits()) return;
    if (before) chosen.set(key, before);
    else chosen.delete(key);
  };

  // The frame, shortest forms first: it is spoken even if it overruns (a 10 s call cannot drop its figures).
  chosen.set("welcome", op("Welcome, everyone.", "intro"));
  chosen.set("figures", said(combined, "cfo"));
  chosen.set("close", op("That concludes the call.", "close"));
  step("welcome", op(`Welcome to the ${company.shortName} call.`, "intro"));
  step("welcome", op(`Welcome to the ${company.shortName} earnings call.`, "intro"));
  step("handover", op(`Over to ${cfo.name}, our ${cfo.title}.`, "intro"));
  step("greeting", said("Thank you, operator.", "cfo"));
  step("figures", [...said(parts.revenueSentence(), "cfo"), ...said(parts.epsSentence(), "cfo")]);
  step(
    "welcome",
    op(
      `Good ${parts.greeting}, and welcome to the ${company.shortName} ${record.period} ${parts.year} earnings call.`,
      "intro",
    ),
  );
  step("handover", op(`I will now hand the call over to ${cfo.name}, ${cfo.title}.`, "intro"));
  if (verdict) step("verdict", said(verdict, "cfo"));
  step("close", op("This concludes today's call. You may now disconnect.", "close"));
  const [guideRevenue, guideEps] = given ? guidanceSentences(given, fig.epsLabel) : [];
  if (guideRevenue) step("guide-revenue", said(guideRevenue, "guidance"));
  step("outlook", said(outlook, "guidance"));
  if (guideEps && given?.epsLow !== null) step("guide-eps", said(guideEps, "guidance"));
  step("greeting", said(`Thank you, operator, and good ${parts.greeting}, everyone.`, "cfo"));
  step("remarks-end", said("That concludes our prepared remarks.", "guidance"));
  step(
    "close",
    op("This concludes today's call. Thank you for participating. You may now disconnect.", "close"),
  );

  const lines = current();
  const closeIndex = lines.length - (chosen.get("close")?.length ?? 0);
  return assemble(input, tone, lines, closeIndex, [], parts.story.cfo);
}

function basisOf(epsLabel: string): string {
  if (epsLabel.startsWith("GAAP")) return "a GAAP";
  if (epsLabel.startsWith("FFO")) return "an FFO";
  return "an adjusted";
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const EMPHASIS: Record<TopicEmphasis["intensity"], readonly string[]> = {
  record: [
    "In {topic}, this was a record quarter for us.",
    "We delivered record results in {topic} this quarter.",
  ],
  strong: ["We saw strong momentum in {topic}.", "Performance in {topic} was strong this quarter."],
  solid: ["We made solid progress in {topic}.", "Trends in {topic} were solid through the quarter."],
  modest: [
    "We saw modest improvement in {topic} this quarter.",
    "Progress in {topic} was modest this quarter.",
  ],
  softer: [
    "We saw softer trends in {topic} this quarter.",
    "Conditions in {topic} were softer this quarter.",
  ],
};

const LEVEL = ["softer", "modest", "solid", "strong", "record"];

function emphasisSentence(topic: TopicEmphasis, rng: ScriptRng): string {
  const base = fill(rng.pick(EMPHASIS[topic.intensity]), { topic: topic.theme.topic });
  const delta = LEVEL.indexOf(topic.intensity) - LEVEL.indexOf(topic.previous);
  if (delta > 0) return `${base.slice(0, -1)}, an improvement from last quarter.`;
  if (delta < 0) return `${base.slice(0, -1)}, after a stronger prior quarter.`;
  return base;
}

function riskSentence({ risk, phase }: { risk: string; phase: "emerging" | "ongoing" | "easing" }): string {
  if (phase === "emerging")
    return `One new factor this quarter was ${risk}, which we expect to weigh on results in the near term.`;
  // Number-neutral wording: risks are singular ("foreign exchange") and plural ("tariffs on …") alike.
  if (phase === "ongoing") return `The headwind from ${risk} continued this quarter, as it did last quarter.`;
  return `The pressure from ${risk}, which weighed on us last quarter, has largely eased.`;
}

/** Compared as said: an actual that rounds to the range's end is "at" it, not above it. */
function position(actual: number, low: number, high: number): string {
  if (actual > high) return "above the high end of";
  if (actual < low) return "below the low end of";
  if (actual === high) return "at the high end of";
  if (actual === low) return "at the low end of";
  return "within";
}

/** The quarter's actuals against what the previous call guided, in the amounts that call stated. */
function againstGuidance(fig: Figures, prior: Guidance): string[] {
  const out: string[] = [];
  if (fig.revenue !== null)
    out.push(
      `Revenue of ${formatMoney(fig.revenue)} was ${position(roundAsSpoken(fig.revenue), prior.revenueLow, prior.revenueHigh)} our guidance range of ${formatMoney(prior.revenueLow)} to ${formatMoney(prior.revenueHigh)}.`,
    );
  if (fig.eps !== null && prior.epsLow !== null && prior.epsHigh !== null)
    out.push(
      `${capitalize(shortEpsLabel(fig.epsLabel))} of ${fig.eps < 0 ? "-" : ""}${formatPerShare(fig.eps)} was ${position(Math.round(fig.eps * 100) / 100, prior.epsLow, prior.epsHigh)} our guidance of ${formatPerShare(prior.epsLow)} to ${formatPerShare(prior.epsHigh)}.`,
    );
  return out;
}

function shortEpsLabel(epsLabel: string): string {
  if (epsLabel.startsWith("GAAP")) return "GAAP EPS";
  if (epsLabel.startsWith("FFO")) return "FFO per share";
  return "adjusted EPS";
}

/** Revenue range (always), EPS range and full-year revenue (when given), in the form analysts extract. */
export function guidanceSentences(given: Guidance, epsLabel: string): string[] {
  const out = [
    `For the ${periodWords(given.period)}, we expect revenue in the range of ${formatMoney(given.revenueLow)} to ${formatMoney(given.revenueHigh)}.`,
  ];
  if (given.epsLow !== null && given.epsHigh !== null)
    out.push(
      `We expect ${shortEpsLabel(epsLabel)} in the range of ${formatPerShare(given.epsLow)} to ${formatPerShare(given.epsHigh)}.`,
    );
  if (given.fullYear)
    out.push(
      `For fiscal ${given.fullYear.year}, we now expect revenue in the range of ${formatMoney(given.fullYear.revenueLow)} to ${formatMoney(given.fullYear.revenueHigh)}.`,
    );
  return out;
}

const ELABORATIONS: readonly string[] = [
  "Over the longer term, we remain confident in the trajectory of the business.",
  "We will share more detail on this at our investor day later in the year.",
  "It is still early, but the data points we have are consistent with that view.",
  "We are watching this closely and will adjust quickly if conditions change.",
  "I would add that our teams have done a good job staying close to customers on this.",
  "So overall, we feel good about where we are positioned.",
];

const FOLLOW_UPS: readonly string[] = [
  "And as a quick follow-up, ",
  "If I could squeeze in one more, ",
  "And just a follow-up, ",
];

interface QaInput {
  rng: ScriptRng;
  profile: SectorProfile;
  themes: readonly SectorTheme[];
  tone: Tone;
  slots: (r: ScriptRng) => Record<string, string>;
  seg: string;
  fig: Figures;
  budget: number;
  /** The company's covering analysts; who asks first rotates with the quarter. */
  roster: readonly Analyst[];
  ordinal: number;
}

interface QaPair {
  question: string;
  answerBy: "ceo" | "cfo";
  answer: string[];
}

function buildQa(q: QaInput): { lines: Line[]; analysts: Analyst[] } {
  const { rng, tone } = q;
  const pairs: QaPair[] = [];
  const elaborations = rng.shuffle(ELABORATIONS);
  let elaborationIndex = 0;
  const elaborate = (): string[] =>
    elaborationIndex < elaborations.length ? [elaborations[elaborationIndex++] as string] : [];
  for (const theme of rng.shuffle(q.themes)) {
    const r = rng.fork(`qa:${theme.topic}`);
    theme.questions.forEach((question, k) => {
      // Two questions on one theme must not get the same answer: split the theme's answers between them.
      const own = theme.answers.filter((_, i) => i % theme.questions.length === k);
      const answer = (own.length > 0 ? own : theme.answers.slice(-1)).map((a) => fill(a, q.slots(r)));
      pairs.push({
        question: fill(question, q.slots(r)),
        answerBy: rng.chance(0.6) ? "ceo" : "cfo",
        answer: [...answer, ...(r.chance(0.7) ? elaborate() : [])],
      });
    });
  }
  pairs.push({
    question: `On the outlook, what are you assuming for ${q.seg} in the coming quarter, and how much conservatism is built in?`,
    answerBy: "cfo",
    answer: [
      `Our outlook assumes ${q.seg} grows roughly in line with what we saw this quarter.`,
      tone === "miss"
        ? "Given the volatility we experienced, we have deliberately widened the range and assumed no improvement in demand."
        : "We take a prudent approach to guidance, and we think the range reflects a balanced view of the risks.",
    ],
  });
  pairs.push({
    question:
      "How are you prioritizing capital allocation between reinvestment, acquisitions and returning cash to shareholders?",
    answerBy: "cfo",
    answer: [
      "Organic investment remains our first priority, because it generates the highest returns.",
      "Beyond that, we will continue to return excess cash through dividends and buybacks, and we look at acquisitions selectively.",
    ],
  });
  if (tone === "miss") {
    pairs.unshift({
      question:
        "I wanted to start with the shortfall this quarter. What surprised you the most, and how confident are you that it doesn't persist?",
      answerBy: "ceo",
      answer: [
        `The biggest surprise was how quickly conditions in ${q.seg} softened late in the quarter.`,
        "We have adjusted our cost base and our plans accordingly, and we are seeing early signs of stabilization.",
        "We are not going to call a bottom today, but we are confident in the actions we have taken.",
      ],
    });
  }
  const queue = pairs;

  // 2–5 analysts; a longer call gets more of them, as a real one would.
  const analystCount = Math.min(q.roster.length, 5, Math.max(2, Math.round(q.budget / 75) + rng.int(-1, 0)));
  const questionsEach = q.budget / analystCount > 70 ? 2 : 1;
  // The same analysts call in quarter after quarter: the roster in order, starting one further each quarter, so
  // two consecutive calls share most of their questioners.
  const first = ((q.ordinal % q.roster.length) + q.roster.length) % q.roster.length;
  const analysts = [...q.roster.slice(first), ...q.roster.slice(0, first)].slice(0, analystCount);

  const lines: Line[] = [];
  let used = 0;
  const opener: Line = {
    role: "operator",
    text: "Thank you. We will now begin the question-and-answer session.",
    section: "qa",
  };
  const take = (batch: Line[]): boolean => {
    const c = cost(batch);
    if (used + c > q.budget) return false;
    lines.push(...batch);
    used += c;
    return true;
  };
  if (!take([opener])) return { lines: [], analysts: [] };

  const greet = rng.shuffle(
    tone === "beat"
      ? [
          "Congratulations on a strong quarter.",
          "Nice results, and thanks for taking my question.",
          "Great quarter, thank you.",
        ]
      : tone === "miss"
        ? [
            "Thanks for taking my question.",
            "Good afternoon, thanks for taking the question.",
            "Thank you for the color so far.",
          ]
        : ["Thanks for taking my questions.", "Good afternoon, and thanks for the time.", "Hi, thank you."],
  );
  const acks = ["Thanks for the question.", "Sure.", "That's a good question.", "Yes, thanks."];
  const speaking: Analyst[] = [];
  let pairIndex = 0;
  for (let a = 0; a < analysts.length && pairIndex < queue.length; a++) {
    const analyst = analysts[a] as Analyst;
    const role: Role = `analyst:${a}`;
    const questions = questionsEach === 2 || rng.chance(0.3) ? 2 : 1;
    const batch: Line[] = [
      {
        role: "operator",
        text: `Our ${a === 0 ? "first" : "next"} question comes from ${analyst.name} with ${sentenceEnd(analyst.firm)} Your line is open.`,
        section: "qa",
      },
    ];
    for (let k = 0; k < questions && pairIndex < queue.length; k++) {
      const pair = queue[pairIndex++] as QaPair;
      const prefix = k === 0 ? `${greet[a % greet.length]} ` : rng.pick(FOLLOW_UPS);
      const question =
        k === 0 || /^I\b/.test(pair.question)
          ? pair.question
          : pair.question.charAt(0).toLowerCase() + pair.question.slice(1);
      batch.push({ role, text: `${prefix}${question}`, section: "qa" });
      const [first, ...rest] = pair.answer;
      batch.push({
        role: pair.answerBy,
        text: `${rng.pick(acks)} ${first ?? "We will come back to you on that."}`,
        section: "qa",
      });
      for (const more of rest) batch.push({ role: pair.answerBy, text: more, section: "qa" });
    }
    if (rng.chance(0.6))
      batch.push({
        role,
        text: rng.pick(["Thank you.", "Very helpful, thanks.", "Great, thank you."]),
        section: "qa",
      });
    if (!take(batch)) break;
    speaking.push(analyst);
  }
  // A follow-up or two from analysts already heard, while questions and time remain.
  for (const analyst of rng.shuffle(speaking).slice(0, 2)) {
    const pair = queue[pairIndex];
    if (!pair) break;
    const role: Role = `analyst:${speaking.indexOf(analyst)}`;
    const [first, ...rest] = pair.answer;
    const batch: Line[] = [
      {
        role: "operator",
        text: `We have a follow-up question from ${analyst.name} with ${sentenceEnd(analyst.firm)} Your line is open.`,
        section: "qa",
      },
      { role, text: `Thanks for squeezing me back in. ${pair.question}`, section: "qa" },
      {
        role: pair.answerBy,
        text: `${rng.pick(acks)} ${first ?? "We will come back to you on that."}`,
        section: "qa",
      },
      ...rest.map((more) => ({ role: pair.answerBy, text: more, section: "qa" as const })),
    ];
    if (!take(batch)) break;
    pairIndex++;
  }
  if (speaking.length === 0) return { lines: [], analysts: [] };
  return { lines, analysts: speaking };
}

function assemble(
  input: ScriptInput,
  tone: Tone,
  lines: readonly Line[],
  closeIndex: number,
  analysts: readonly Analyst[],
  cfo: Executive,
): CallScript {
  const { company, record } = input;
  const labels = new Map<Role, string>();
  let next = 1;
  for (const line of lines) {
    if (labels.has(line.role)) continue;
    labels.set(line.role, line.role === "operator" ? "OPERATOR" : `SPEAKER_${next++}`);
  }
  const speakers: EnrichmentSpeaker[] = [];
  for (const [role, label] of labels) {
    if (role === "operator") {
      speakers.push({
        label,
        name: "Operator",
        role: "Operator",
        title: "Operator",
        organization: company.shortName,
      });
    } else if (role === "ir" || role === "ceo" || role === "cfo") {
      const exec = role === "cfo" ? cfo : company.executives[role];
      speakers.push({
        label,
        name: exec.name,
        role: "Executive",
        title: exec.title,
        organization: company.shortName,
      });
    } else {
      const analyst = analysts[Number(role.slice("analyst:".length))];
      speakers.push({
        label,
        name: analyst?.name ?? "Analyst",
        role: "Analyst",
        title: "Analyst",
        organization: analyst?.firm ?? "",
      });
    }
  }
  return {
    callId: input.callId,
    title: callTitle(record.period, record.period_year, company),
    tone,
    period: record.period,
    year: record.period_year,
    speakers,
    sentences: lines.map((l) => ({
      speakerLabel: labels.get(l.role) ?? "OPERATOR",
      text: l.text,
      section: l.section,
    })),
    closeIndex,
  };
}
