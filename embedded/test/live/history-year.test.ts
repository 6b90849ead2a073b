// The demo's invariants on any day (issue 29): what the history of calls says holds on 28 dates over two years, quarter
// ends, year ends, a leap day and the US daylight-saving changes among them, and at both ends of the span
// `EMBEDDED_NOW` accepts; not only on the day a test was written. The history is read in process, as the service
// builds it (`CallStore.historicalCalls` at each instant); the universe is built once and a script is generated once per distinct
// input (the same record, neighbours and start give the same script), so the whole check takes seconds.
import { beforeAll, describe, expect, it } from "vitest";
import { CLOCK_FIRST_MS, CLOCK_LAST_MS } from "../../clock";
import { DEFAULT_SEED } from "../../config";
import { toEarningsRecord, type ReportEvent } from "../../universe/calendar";
import { buildUniverse, internalsOf } from "../../universe/index";
import type { WireEarningsRecord } from "../../universe/wire";
import { CallStore, type HistoryEntry } from "../../live/call-store";
import { createEnricher } from "../../live/enrichment/index";
import { recordsForLiveCall } from "../../live/live-calls";
import { generateScript } from "../../live/script/generate";
import type { CallScript, ScriptInput } from "../../live/script/types";
import { SPAN_ENDS, YEAR_DATES as DATES } from "../year-dates";
import { analystsRecur, checkCall, checkCompany, type CallFacts, type CallView } from "./history-invariants";

const HISTORY_CALL_SECONDS = 600;
const ENRICH_DELAY_MS = 20_000;

const universe = buildUniverse(DEFAULT_SEED);
const events = internalsOf(universe).events;

/** One script per distinct input: the service's generator, called as the store calls it. */
const scripts = new Map<string, CallScript>();
let generated = 0;
function memoGenerate(input: ScriptInput): CallScript {
  const key = JSON.stringify({ ...input, company: input.company.symbol });
  let script = scripts.get(key);
  if (!script) {
    script = generateScript(input);
    generated++;
    scripts.set(key, script);
  }
  return script;
}

function storeAt(): CallStore {
  const never = () => {
    throw new Error("no audio in this test");
  };
  return new CallStore({
    universe,
    speech: never,
    createTrack: never,
    enricher: createEnricher(),
    now: never,
    enrichDelayMs: ENRICH_DELAY_MS,
    historyCallSeconds: HISTORY_CALL_SECONDS,
    audioCacheSize: 1,
    generate: memoGenerate,
  });
}

const eventsBySymbol = new Map<string, ReportEvent[]>();
for (const event of events) {
  const symbol = event.entry.company.symbol;
  eventsBySymbol.set(symbol, [...(eventsBySymbol.get(symbol) ?? []), event]);
}

/** The company's records as the universe holds them (the truth a call is checked against), rendered at `nowMs`. */
function companyRecords(symbol: string, nowMs: number): WireEarningsRecord[] {
  return (eventsBySymbol.get(symbol) ?? []).map((e) => toEarningsRecord(e, nowMs));
}

/** One view per script: the checks read the same script on many dates. */
const views = new WeakMap<CallScript, CallView>();
function viewOf(script: CallScript, startMs: number): CallView {
  let view = views.get(script);
  if (!view) {
    view = {
      period: script.period,
      year: script.year,
      startMs,
      sentences: script.sentences.map((s) => ({ speaker: s.speakerLabel, text: s.text })),
      participants: script.speakers,
    };
    views.set(script, view);
  }
  return view;
}

/** A call checked once per script and records: the same call on another date reads the same. */
const checked = new WeakMap<CallView, Map<string, { facts: CallFacts; problems: string[] }>>();
const memoCheck: typeof checkCall = (call, record, next, problems) => {
  const byRecords = checked.get(call) ?? new Map<string, { facts: CallFacts; problems: string[] }>();
  checked.set(call, byRecords);
  const key = JSON.stringify([record, next]);
  let hit = byRecords.get(key);
  if (!hit) {
    const own: string[] = [];
    hit = { facts: checkCall(call, record, next, own), problems: own };
    byRecords.set(key, hit);
  }
  problems.push(...hit.problems);
  return hit.facts;
};

interface DateResult {
  date: string;
  calls: number;
  companies: number;
  problems: string[];
  recurring: number;
}

function checkDate(date: string): DateResult {
  const nowMs = Date.parse(date);
  const store = storeAt();
  const problems: string[] = [];
  const byCompany = new Map<string, HistoryEntry[]>();
  const history = store.historicalCalls(nowMs);
  for (const entry of history) {
    const list = byCompany.get(entry.company.symbol) ?? [];
    list.push(entry);
    byCompany.set(entry.company.symbol, list);
  }
  let recurring = 0;
  for (const company of universe.companies) {
    const entries = (byCompany.get(company.symbol) ?? []).sort(
      (a, b) => a.startTime.getTime() - b.startTime.getTime(),
    );
    // Every company has a year of history: four or five calls in the calendar's 400 days.
    if (entries.length < 4 || entries.length > 5)
      problems.push(`${company.symbol}: ${entries.length} calls in the history`);
    const records = companyRecords(company.symbol, nowMs);
    const calls = entries.map((entry) => {
      if (entry.startTime.getTime() + entry.plannedSeconds * 1000 + ENRICH_DELAY_MS > nowMs)
        problems.push(`${entry.callId}: in the history before it ended`);
      const index = records.findIndex((r) => r.id === entry.record.id);
      const next = records[index + 1];
      if (entry.nextRecord?.id !== next?.id)
        problems.push(
          `${company.symbol} ${entry.record.period} ${entry.record.period_year}: guides for the wrong record`,
        );
      const script = store.scriptFor(entry);
      return { call: viewOf(script, entry.startTime.getTime()), record: entry.record, next };
    });
    if (analystsRecur(checkCompany(company.symbol, calls, problems, memoCheck))) recurring++;
  }
  // A live call started now (scheduler, control API) speaks to the company's latest report and guides for the next.
  const records = universe.earningsRecords(new Date(nowMs));
  for (const company of universe.companies) {
    const picked = recordsForLiveCall(records, company.symbol, (record, step) =>
      store.adjacentRecordOf(record, step, nowMs),
    );
    if (!picked?.next)
      problems.push(`${company.symbol}: a live call now would have no next record to guide for`);
  }
  return { date, calls: history.length, companies: byCompany.size, problems, recurring };
}

describe("the history's invariants on any date", () => {
  let results: DateResult[] = [];
  let elapsedMs = 0;

  beforeAll(() => {
    const started = performance.now();
    results = [...DATES, ...SPAN_ENDS].map(checkDate);
    elapsedMs = performance.now() - started;
    console.log(
      `[history-year] ${results.length} dates, ${results.reduce((s, r) => s + r.calls, 0)} calls checked, ` +
        `${generated} scripts generated, ${Math.round(elapsedMs)} ms`,
    );
  }, 120_000);

  it("checks at least 24 dates over a year, with quarter ends, year ends, the leap day and the DST changes", () => {
    const days = new Set(DATES.map((d) => d.slice(0, 10)));
    expect(days.size).toBeGreaterThanOrEqual(24);
    for (const day of ["2026-03-31", "2026-06-30", "2026-09-30", "2026-12-31", "2027-12-31", "2028-02-29"])
      expect(days).toContain(day);
    for (const day of ["2026-03-08", "2026-11-01", "2027-03-14", "2027-11-07"]) expect(days).toContain(day);
    const instants = DATES.map((d) => Date.parse(d));
    expect((Math.max(...instants) - Math.min(...instants)) / 86_400_000).toBeGreaterThan(365);
    for (const d of DATES) {
      expect(Date.parse(d)).toBeGreaterThanOrEqual(CLOCK_FIRST_MS);
      expect(Date.parse(d)).toBeLessThanOrEqual(CLOCK_LAST_MS);
    }
  });

  it("holds on every date: guidance stated and answered, people, release before call, each call's structure", () => {
    const problems = results.flatMap((r) => r.problems.map((p) => `${r.date} ${p}`));
    expect(problems.slice(0, 40)).toEqual([]);
    for (const r of results) {
      expect(r.companies, r.date).toBe(universe.companies.length);
      expect(r.calls, r.date).toBeGreaterThanOrEqual(600);
    }
  });

  it("has the same analysts calling in quarter after quarter, for every company on every date", () => {
    for (const r of results) expect(r.recurring, r.date).toBe(universe.companies.length);
  });
});
