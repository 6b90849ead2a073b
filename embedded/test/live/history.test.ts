/* eslint-disable @typescript-eslint/no-explicit-any -- untyped JSON bodies are what these tests inspect, field by field */
// A year of calls per company (issue 15), checked over HTTP as a client sees it: paging, stated actuals against the
// calendar, guidance against the next record and the next call, recurring analysts, shifting emphasis, releases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmbedded, type TestEmbedded } from "../harness";
import { callStartOf, releaseTimeOf } from "../../live/call-store";
import { getJson, until } from "./helpers";
import { analystsRecur, checkCompany, type CallView } from "./history-invariants";

let embedded: TestEmbedded;
const calls = () => `${embedded.url}/api/v1/transcripts/calls`;
const earnings = () => `${embedded.url}/api/v2.1/calendar/earnings`;

beforeAll(async () => {
  embedded = await startTestEmbedded({ EMBEDDED_LIVE_CALLS: "0", EMBEDDED_ENRICH_SECONDS: "1" });
}, 30_000);

afterAll(() => embedded.close());

async function allPages(query: string): Promise<{ ids: string[]; hits: number; pages: number }> {
  const ids: string[] = [];
  let page = 1;
  let hits = 0;
  let pageCount = 1;
  do {
    const { status, body } = await getJson(`${calls()}?${query}&page_size=100&page=${page}`);
    expect(status).toBe(200);
    hits = body.pagination.hits;
    pageCount = body.pagination.page_count;
    ids.push(...body.data.map((c: any) => c.call_id as string));
    page++;
  } while (page <= pageCount);
  return { ids, hits, pages: pageCount };
}

describe("a year of history", () => {
  it("pages through at least 600 completed calls, each exactly once, across 400 days", async () => {
    const { ids, hits } = await allPages("info_only=true&sort_by=start_time:asc");
    expect(hits).toBeGreaterThanOrEqual(600);
    expect(ids).toHaveLength(hits);
    expect(new Set(ids).size).toBe(hits);
    const { body: oldest } = await getJson(`${calls()}?info_only=true&page_size=1&sort_by=start_time:asc`);
    const firstStart = Date.parse(oldest.data[0].start_time);
    expect(firstStart).toBeLessThan(embedded.now() - 330 * 86_400_000);
    expect(firstStart).toBeGreaterThan(embedded.now() - 401 * 86_400_000);
  }, 120_000);

  it("filters by ticker and dates; a company has four or five past calls, each after its release", async () => {
    const { body: cal } = await getJson(`${earnings()}?pagesize=1000&parameters[date_sort]=date:asc`);
    const ticker = cal.earnings[0].ticker as string;
    const { body } = await getJson(`${calls()}?symbol=${ticker}&info_only=true&page_size=100`);
    expect(body.pagination.hits).toBeGreaterThanOrEqual(4);
    expect(body.pagination.hits).toBeLessThanOrEqual(5);
    for (const call of body.data) {
      expect(call.symbol).toBe(ticker);
      const record = cal.earnings.find(
        (r: any) => r.ticker === ticker && r.period === call.period && r.period_year === call.year,
      );
      expect(record).toBeDefined();
      expect(Date.parse(call.start_time)).toBeGreaterThan(releaseTimeOf(record).getTime());
    }
    const second = body.data[1];
    const day = (second.start_time as string).slice(0, 10);
    const { body: oneDay } = await getJson(
      `${calls()}?symbol=${ticker}&from=${day}&to=${day}&info_only=true`,
    );
    expect(oneDay.data.map((c: any) => c.call_id)).toEqual([second.call_id]);
    const { body: live } = await getJson(`${calls()}?status=IN_PROGRESS&info_only=true`);
    expect(live.pagination.hits).toBe(0);
  }, 60_000);
});

describe("continuity across a company's calls", () => {
  interface Checked {
    ticker: string;
    analystsRecur: boolean;
    emphasisShifts: boolean;
  }
  let checked: Checked[] = [];

  beforeAll(async () => {
    const { body: cal } = await getJson(`${earnings()}?pagesize=1000&parameters[date_sort]=date:asc`);
    const tickers = [...new Set((cal.earnings as any[]).map((r) => r.ticker as string))];
    // Twenty companies spread over the universe (its order is sector by sector).
    const step = Math.max(1, Math.floor(tickers.length / 20));
    const sample = tickers.filter((_, i) => i % step === 0).slice(0, 20);
    const { body: records } = await getJson(
      `${earnings()}?pagesize=1000&parameters[date_sort]=date:asc&parameters[tickers]=${sample.join(",")}`,
    );
    checked = [];
    for (const ticker of sample) {
      const own = (records.earnings as any[]).filter((r) => r.ticker === ticker);
      const { body } = await getJson(`${calls()}?symbol=${ticker}&page_size=100&sort_by=start_time:asc`);
      checked.push(checkCompanyCalls(ticker, own, body.data));
    }
  }, 180_000);

  function checkCompanyCalls(ticker: string, records: any[], companyCalls: any[]): Checked {
    expect(companyCalls.length, ticker).toBeGreaterThanOrEqual(4);
    const problems: string[] = [];
    const emphasisByCall: string[] = [];
    const calls = companyCalls.map((call) => {
      const index = records.findIndex((r) => r.period === call.period && r.period_year === call.year);
      expect(index, `${ticker} ${call.period} ${call.year}`).toBeGreaterThanOrEqual(0);
      const final = call.transcripts.find((t: any) => t.type === "NON_LIVE") ?? call.transcripts[0];
      const view: CallView = {
        period: call.period,
        year: call.year,
        startMs: Date.parse(call.start_time),
        sentences: final.segments.map((s: any) => ({ speaker: s.speaker, text: s.text })),
        // The wire names an executive's title as the role (docs/upstream.md §5).
        participants: call.participants.map((p: any) => ({
          name: p.name,
          role: p.role === "Operator" || p.role === "Analyst" ? p.role : "Executive",
          title: p.role,
          organization: p.organization,
        })),
      };
      const text = view.sentences.map((s) => s.text).join(" ");
      emphasisByCall.push(
        [
          ...text.matchAll(
            /\b(record|strong|solid|modest|softer) (?:quarter for us|results in|momentum in|progress in|improvement in|trends in)|\b(?:was|were) (strong|solid|modest|softer) (?:this|through) quarter/g,
          ),
        ]
          .map((m) => m[1] ?? m[2])
          .sort()
          .join(","),
      );
      // The next record may lie past the calendar's window (90 days ahead): the call guides for it all the same
      // (the year's check, history-year.test.ts, has the universe's records to compare with).
      return { call: view, record: records[index], next: records[index + 1] };
    });
    const facts = checkCompany(ticker, calls, problems);
    // The newest call has no next record in the window to compare its guidance with, which the HTTP view cannot see.
    expect(problems.filter((p) => !p.endsWith("has no next record to guide for"))).toEqual([]);
    return {
      ticker,
      analystsRecur: analystsRecur(facts),
      emphasisShifts: emphasisByCall.some((e, i) => i > 0 && e !== emphasisByCall[i - 1]),
    };
  }

  it("checked twenty companies", () => {
    expect(checked).toHaveLength(20);
  });

  it("has the same analysts calling in quarter after quarter", () => {
    expect(checked.filter((c) => !c.analystsRecur).map((c) => c.ticker)).toEqual([]);
  });

  it("shifts the intensity wording between consecutive calls for most companies", () => {
    expect(checked.filter((c) => c.emphasisShifts).length).toBeGreaterThanOrEqual(15);
  });
});

describe("a release while the service runs", () => {
  it("shows the record's actuals from its release time, with `updated` set then", async () => {
    const { body } = await getJson(`${earnings()}?pagesize=1000&parameters[date_sort]=date:asc`);
    const now = embedded.now();
    const upcoming = (body.earnings as any[]).find(
      (r) => r.eps === "" && releaseTimeOf(r).getTime() > now + 60_000,
    );
    expect(upcoming).toBeDefined();
    const releaseMs = releaseTimeOf(upcoming).getTime();
    // The service's clock runs at wall-clock speed, a minute before the release while it starts (a loaded
    // machine takes seconds), then 2 s before it.
    let offset = releaseMs - Date.now() - 60_000;
    const shifted = await startTestEmbedded(
      { EMBEDDED_LIVE_CALLS: "0" },
      { clock: () => Date.now() + offset },
    );
    offset = releaseMs - Date.now() - 2000;
    try {
      const url = `${shifted.url}/api/v2.1/calendar/earnings?parameters[tickers]=${upcoming.ticker}&parameters[date]=${upcoming.date}`;
      const before = (await getJson(url)).body.earnings[0];
      expect(before.eps).toBe("");
      expect(before.updated).toBeLessThan(releaseMs / 1000);
      const after = await until(
        async () => {
          const record = (await getJson(url)).body.earnings[0];
          return record.eps !== "" ? record : null;
        },
        15_000,
        250,
      );
      expect(Date.now() + offset).toBeGreaterThanOrEqual(releaseMs);
      expect(after.eps_surprise).not.toBe("");
      expect(after.revenue).not.toBe("");
      expect(after.updated).toBe(Math.floor(releaseMs / 1000));
      const { body: sinceRelease } = await getJson(
        `${shifted.url}/api/v2.1/calendar/earnings?parameters[updated]=${Math.floor(releaseMs / 1000)}&pagesize=1000`,
      );
      expect(sinceRelease.earnings.map((r: any) => r.id)).toContain(upcoming.id);
    } finally {
      await shifted.close();
    }
  }, 60_000);

  it("starts the record's call live after the release, speaking with diarization labels", async () => {
    const { body } = await getJson(`${earnings()}?pagesize=1000&parameters[date_sort]=date:asc`);
    const now = embedded.now();
    const upcoming = (body.earnings as any[]).find(
      (r) => r.eps === "" && releaseTimeOf(r).getTime() > now + 60_000,
    );
    const callStart = callStartOf(upcoming).getTime();
    expect(callStart).toBeGreaterThan(releaseTimeOf(upcoming).getTime());
    let offset = callStart - Date.now() - 60_000;
    // One lane: release calls only run when calls may go live at all.
    const shifted = await startTestEmbedded(
      { EMBEDDED_LIVE_CALLS: "1", EMBEDDED_CALL_MINUTES: "30" },
      { clock: () => Date.now() + offset },
    );
    offset = callStart - Date.now() - 1500;
    try {
      const live = await until(
        async () => {
          const { body: list } = await getJson(
            `${shifted.url}/api/v1/transcripts/calls?status=IN_PROGRESS&symbol=${upcoming.ticker}`,
          );
          const call = (list.data as any[]).find((c) => c.period === upcoming.period);
          return call && call.transcripts[0].segments.length > 0 ? call : null;
        },
        60_000,
        500,
      );
      expect(Date.parse(live.start_time)).toBe(callStart);
      expect(live.year).toBe(upcoming.period_year);
      for (const segment of live.transcripts[0].segments)
        expect(segment.speaker).toMatch(/^(OPERATOR|SPEAKER_\d+)$/);
      expect(live.transcripts[0].segments[0].text).toMatch(/welcome/i);
      // The calendar shows its actuals by now.
      const { body: cal } = await getJson(
        `${shifted.url}/api/v2.1/calendar/earnings?parameters[tickers]=${upcoming.ticker}&parameters[date]=${upcoming.date}`,
      );
      expect(cal.earnings[0].eps).not.toBe("");
    } finally {
      await shifted.close();
    }
  }, 90_000);
});
