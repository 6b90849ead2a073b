/**
 * The invariants of a company's history of calls (docs/embedded-history.md), as a client reads them: what each call
 * says against the calendar, and what consecutive calls say of each other. Shared by the HTTP test of one date
 * (`history.test.ts`) and the in-process check of a year of dates (`history-year.test.ts`). Each check returns the
 * violations it found, as readable lines, so a run over many dates reports all of them at once.
 */
import type { WireEarningsRecord } from "../../universe/wire";
import { releaseTimeOf } from "../../live/call-store";

export interface CallView {
  period: string;
  year: number;
  startMs: number;
  /** In order: the diarization label (or the name, in an enriched transcript) and the text. */
  sentences: readonly { speaker: string; text: string }[];
  participants: readonly { name: string; role: string; title: string; organization: string }[];
}

/** "$4.21 billion", "$812 million", "$950,000" → dollars. */
export function dollars(text: string): number {
  const match = /^\$([\d,.]+)(?: (thousand|million|billion|trillion))?$/.exec(text.trim());
  if (!match) throw new Error(`not an amount: ${text}`);
  const scale = { thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 }[match[2] ?? ""] ?? 1;
  return Number((match[1] ?? "").replace(/,/g, "")) * scale;
}

const AMOUNT = String.raw`\$[\d,.]*\d(?: (?:thousand|million|billion|trillion))?`;
const REVENUE_STATED = new RegExp(`Revenue for the \\w+ quarter was (${AMOUNT})`);
const EPS_STATED = /(?:earnings per share were|FFO per share were|a loss of) \$(\d+\.\d\d)/;
const GUIDED = new RegExp(
  `For the \\w+ quarter, we expect revenue in the range of (${AMOUNT}) to (${AMOUNT})\\.`,
);
const EPS_GUIDED =
  /We expect (?:adjusted EPS|GAAP EPS|FFO per share) in the range of \$(\d+\.\d\d) to \$(\d+\.\d\d)\./;
const ANSWERED = new RegExp(
  `Revenue of (${AMOUNT}) was (above the high end of|below the low end of|at the high end of|at the low end of|within) our guidance range of (${AMOUNT}) to (${AMOUNT})\\.`,
);
const INTRODUCED = /Our (?:first|next) question comes from (.+?) with (.+?)\. Your line is open\./;
const LABEL = /^(OPERATOR|SPEAKER_(\d+))$/;

const within = (value: number, target: number, fraction: number) =>
  Math.abs(value - target) <= Math.abs(target) * fraction;

export interface CallFacts {
  guidance: { low: number; high: number } | null;
  answered: { low: number; high: number } | null;
  analysts: string[];
  ceo: string | undefined;
  cfo: string | undefined;
  ir: string | undefined;
  announcesCfoLeaving: boolean;
  introducesNewCfo: boolean;
}

/** What one call says against its own record and its next one; `problems` collects what is wrong. */
export function checkCall(
  call: CallView,
  record: WireEarningsRecord,
  next: WireEarningsRecord | undefined,
  problems: string[],
): CallFacts {
  const where = `${record.ticker} ${call.period} ${call.year}`;
  const fail = (what: string) => problems.push(`${where}: ${what}`);
  const texts = call.sentences.map((s) => s.text);
  const text = texts.join(" ");
  const indexOf = (pattern: RegExp) => texts.findIndex((t) => pattern.test(t));

  // Release before call: the record has its actuals, and the call starts after the release.
  if (record.eps === "" && record.revenue === "") fail("the call's record has no actuals");
  const releaseMs = releaseTimeOf(record).getTime();
  if (!(call.startMs > releaseMs))
    fail(
      `starts ${new Date(call.startMs).toISOString()}, not after the release (${record.date} ${record.time})`,
    );

  // Structure: welcome, safe harbour, results, guidance, questions, close, in that order.
  const order = [
    ["the welcome", indexOf(/welcome to the .+ earnings conference call\./)],
    ["the safe harbour", indexOf(/forward-looking statements/)],
    ["the revenue", indexOf(REVENUE_STATED)],
    ["the guidance", indexOf(GUIDED)],
    ["the first question", indexOf(/Our first question comes from/)],
    ["the close", indexOf(/^This concludes today's conference call\./)],
  ] as const;
  for (const [name, index] of order) if (index < 0) fail(`no sentence with ${name}`);
  for (let i = 1; i < order.length; i++) {
    const [before, a] = order[i - 1]!;
    const [after, b] = order[i]!;
    if (a >= 0 && b >= 0 && a > b) fail(`${before} comes after ${after}`);
  }
  if (indexOf(/welcome to the/) !== 0) fail("the first sentence is not the welcome");
  if (texts.length > 0 && !/You may now disconnect\.$/.test(texts.at(-1)!))
    fail("the last sentence is not the close");
  // Diarization labels (a live or planned transcript): the operator first, then SPEAKER_1, 2, … in order of appearance.
  if (call.sentences.every((s) => LABEL.test(s.speaker))) {
    if (call.sentences[0]?.speaker !== "OPERATOR") fail("the operator does not speak first");
    let highest = 0;
    for (const { speaker } of call.sentences) {
      const n = Number(LABEL.exec(speaker)?.[2] ?? 0);
      if (n > highest + 1) fail(`${speaker} speaks before SPEAKER_${highest + 1}`);
      highest = Math.max(highest, n);
    }
  }

  // Stated actuals equal the calendar's, as a CFO rounds them.
  const revenue = REVENUE_STATED.exec(text);
  if (revenue && !within(dollars(revenue[1]!), Number(record.revenue), 0.005))
    fail(`states revenue ${revenue[1]}, the calendar ${record.revenue}`);
  const eps = EPS_STATED.exec(text);
  if (!eps) fail("no EPS sentence");
  else if (Math.abs(Number(eps[1]) - Math.abs(Number(record.eps))) > 0.005)
    fail(`states EPS ${eps[1]}, the calendar ${record.eps}`);

  // Guidance for the next quarter, midpoint within ±5 % of the next record's estimates.
  const guided = GUIDED.exec(text);
  const guidance = guided ? { low: dollars(guided[1]!), high: dollars(guided[2]!) } : null;
  if (guidance && !(guidance.low < guidance.high))
    fail(`guidance range ${guided![1]} to ${guided![2]} is empty`);
  if (guidance && next) {
    if (!within((guidance.low + guidance.high) / 2, Number(next.revenue_est), 0.05))
      fail(`guides revenue ${guided![1]} to ${guided![2]}, the next estimate is ${next.revenue_est}`);
    const epsGuided = EPS_GUIDED.exec(text);
    if (epsGuided && !within((Number(epsGuided[1]) + Number(epsGuided[2])) / 2, Number(next.eps_est), 0.05))
      fail(`guides EPS ${epsGuided[1]} to ${epsGuided[2]}, the next estimate is ${next.eps_est}`);
  }
  if (!next) fail("the company has no next record to guide for");

  // Revenue against the previous call's guidance, consistent with where the amount falls.
  const said = ANSWERED.exec(text);
  let answered: CallFacts["answered"] = null;
  if (said) {
    const [, actualText = "", position = "", lowText = "", highText = ""] = said;
    answered = { low: dollars(lowText), high: dollars(highText) };
    const actual = dollars(actualText);
    const wrong =
      (position === "above the high end of" && !(actual > answered.high)) ||
      (position === "below the low end of" && !(actual < answered.low)) ||
      (position === "within" && !(actual > answered.low && actual < answered.high));
    if (wrong) fail(`says revenue ${actualText} was ${position} ${lowText} to ${highText}`);
  }

  // Q&A: the operator introduces at least two analysts, each a participant with that firm.
  const introduced = texts.map((t) => INTRODUCED.exec(t)).filter((m) => m !== null);
  if (introduced.length < 2) fail(`${introduced.length} analysts introduced`);
  const analysts = call.participants.filter((p) => p.role === "Analyst");
  for (const [, name, firm] of introduced)
    if (!analysts.some((a) => a.name === name && a.organization.replace(/\.$/, "") === firm))
      fail(`${name} with ${firm} is not a participant`);

  const executive = (title: RegExp) =>
    call.participants.find((p) => p.role === "Executive" && title.test(p.title))?.name;
  return {
    guidance,
    answered,
    analysts: analysts.map((a) => a.name),
    ceo: executive(/^Chief Executive Officer$/),
    cfo: executive(/^Chief Financial Officer$/),
    ir: executive(/Investor Relations/),
    announcesCfoLeaving: /this will be .+'s last earnings call as our Chief Financial Officer\./.test(text),
    introducesNewCfo: /who joined us as Chief Financial Officer this quarter\./.test(text),
  };
}

/**
 * A company's calls in start order, each with its record and the company's next one: every call checked alone,
 * then the continuity between consecutive calls (guidance answered with the range stated, the same CEO and investor
 * relations, a CFO change announced and then introduced, analysts who call again).
 */
export function checkCompany(
  ticker: string,
  calls: readonly { call: CallView; record: WireEarningsRecord; next: WireEarningsRecord | undefined }[],
  problems: string[],
  check: typeof checkCall = checkCall,
): CallFacts[] {
  const facts = calls.map(({ call, record, next }) => check(call, record, next, problems));
  const names = (pick: (f: CallFacts) => string | undefined) => new Set(facts.map(pick));
  if (names((f) => f.ceo).size !== 1) problems.push(`${ticker}: CEOs ${[...names((f) => f.ceo)].join(", ")}`);
  if (names((f) => f.ir).size !== 1) problems.push(`${ticker}: IR ${[...names((f) => f.ir)].join(", ")}`);
  for (let k = 1; k < facts.length; k++) {
    const before = facts[k - 1]!;
    const after = facts[k]!;
    const where = `${ticker} ${calls[k]!.call.period} ${calls[k]!.call.year}`;
    // Consecutive quarters only: a call answers the guidance of the company's call just before it.
    if (calls[k]!.record.id === calls[k - 1]!.next?.id) {
      if (!after.answered) problems.push(`${where}: does not report against the previous guidance`);
      else if (
        !before.guidance ||
        after.answered.low !== before.guidance.low ||
        after.answered.high !== before.guidance.high
      )
        problems.push(
          `${where}: reports against ${after.answered.low}–${after.answered.high}, the previous call guided ${before.guidance?.low}–${before.guidance?.high}`,
        );
    } else problems.push(`${where}: the previous call is not of the previous quarter`);
    if (before.cfo !== after.cfo && !(before.announcesCfoLeaving && after.introducesNewCfo))
      problems.push(`${where}: the CFO changed from ${before.cfo} to ${after.cfo} unannounced`);
    if (before.cfo === after.cfo && after.introducesNewCfo)
      problems.push(`${where}: introduces ${after.cfo} as new, who spoke on the previous call`);
  }
  return facts;
}

/** Some analyst calls in on at least two of the company's calls. */
export const analystsRecur = (facts: readonly CallFacts[]): boolean => {
  const seen = new Map<string, number>();
  for (const f of facts) for (const n of new Set(f.analysts)) seen.set(n, (seen.get(n) ?? 0) + 1);
  return [...seen.values()].some((count) => count >= 2);
};
