/* eslint-disable @typescript-eslint/no-explicit-any -- untyped JSON bodies are what these tests inspect, field by field */
// A year of calls per company (issue 15), checked over HTTP as a client sees it: paging, stated actuals against the
// calendar, guidance against the next record and the next call, recurring analysts, shifting emphasis, releases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmbedded, type TestEmbedded } from "../../test/harness";
import { callStartOf, easternToUtc } from "../call-store";
import { getJson, until } from "./helpers";

let embedded: TestEmbedded;
const calls = () => `${embedded.url}/api/v1/transcripts/calls`;
const earnings = () => `${embedded.url}/api/v2.1/calendar/earnings`;

beforeAll(async () => {
  embedded = await startTestEmbedded({ EMBEDDED_LIVE_CALLS: "0", EMBEDDED_ENRICH_SECONDS: "1" });
}, 30_000);

afterAll(() => embedded.close());

/** "$4.21 billion", "$812 million", "$950,000" → dollars. */
function dollars(text: string): number {
  const match = /^\$([\d,.]+)(?: (thousand|million|billion|trillion))?$/.exec(text.trim());
  if (!match) throw new Error(`not an amount: ${text}`);
  const scale = { thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 }[match[2] ?? ""] ?? 1;
  return Number((match[1] ?? "").replace(/,/g, "")) * scale;
}

const AMOUNT = String.raw`\$[\d,.]*\d(?: (?:thousand|million|billion|trillion))?`;
const within = (value: number, target: number, fraction: number) =>
  Math.abs(value - target) <= Math.abs(target) * fraction;

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
    expect(firstStart).toBeLessThan(Date.now() - 330 * 86_400_000);
    expect(firstStart).toBeGreaterThan(Date.now() - 401 * 86_400_000);
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
      expect(Date.parse(call.start_time)).toBeGreaterThan(easternToUtc(record.date, record.time).getTime());
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
      checked.push(checkCompany(ticker, own, body.data));
    }
  }, 180_000);

  function transcriptText(call: any): string {
    const final = call.transcripts.find((t: any) => t.type === "NON_LIVE") ?? call.transcripts[0];
    return final.segments.map((s: any) => s.text).join(" ");
  }

  function checkCompany(ticker: string, records: any[], companyCalls: any[]): Checked {
    expect(companyCalls.length, ticker).toBeGreaterThanOrEqual(4);
    const analystsByCall: string[][] = [];
    const emphasisByCall: string[] = [];
    const ceos = new Set<string>();
    let previousGuidance: { low: number; high: number } | null = null;
    companyCalls.forEach((call, k) => {
      const index = records.findIndex((r) => r.period === call.period && r.period_year === call.year);
      const record = records[index];
      const next = records[index + 1];
      expect(record, `${ticker} ${call.period} ${call.year}`).toBeDefined();
      const text = transcriptText(call);

      // Stated actuals equal the calendar's, as a CFO rounds them.
      const revenue = new RegExp(`Revenue for the \\w+ quarter was (${AMOUNT})`).exec(text);
      expect(revenue, `${ticker} revenue sentence`).not.toBeNull();
      expect(within(dollars(revenue?.[1] ?? ""), Number(record.revenue), 0.005)).toBe(true);
      const eps = /(?:earnings per share were|FFO per share were|a loss of) \$(\d+\.\d\d)/.exec(text);
      expect(eps, `${ticker} EPS sentence`).not.toBeNull();
      expect(Math.abs(Number(eps?.[1]) - Math.abs(Number(record.eps)))).toBeLessThanOrEqual(0.005);

      // Guidance for the next quarter, midpoint within ±5 % of the next record's estimates.
      const guided = new RegExp(
        `For the \\w+ quarter, we expect revenue in the range of (${AMOUNT}) to (${AMOUNT})\\.`,
      ).exec(text);
      expect(guided, `${ticker} ${call.period} ${call.year} guidance`).not.toBeNull();
      const low = dollars(guided?.[1] ?? "");
      const high = dollars(guided?.[2] ?? "");
      expect(low).toBeLessThan(high);
      // The next record may lie past the calendar's window (90 days ahead); the call guides for it all the same,
      // and the next call, when there is one, reports against that range (checked below).
      if (next) {
        expect(within((low + high) / 2, Number(next.revenue_est), 0.05)).toBe(true);
        const epsGuided =
          /We expect (?:adjusted EPS|GAAP EPS|FFO per share) in the range of \$(\d+\.\d\d) to \$(\d+\.\d\d)\./.exec(
            text,
          );
        if (epsGuided)
          expect(within((Number(epsGuided[1]) + Number(epsGuided[2])) / 2, Number(next.eps_est), 0.05)).toBe(
            true,
          );
      }

      // The call answers the previous call's guidance, with the range that call stated.
      const answered = new RegExp(
        `Revenue of (${AMOUNT}) was (above the high end of|below the low end of|at the high end of|at the low end of|within) our guidance range of (${AMOUNT}) to (${AMOUNT})\\.`,
      ).exec(text);
      if (k > 0) {
        expect(answered, `${ticker} ${call.period} ${call.year} against guidance`).not.toBeNull();
        const [, actualText = "", where = "", lowText = "", highText = ""] = answered ?? [];
        expect({ low: dollars(lowText), high: dollars(highText) }).toEqual(previousGuidance);
        const actual = dollars(actualText);
        if (where === "above the high end of") expect(actual).toBeGreaterThan(dollars(highText));
        if (where === "below the low end of") expect(actual).toBeLessThan(dollars(lowText));
        if (where === "within") {
          expect(actual).toBeGreaterThan(dollars(lowText));
          expect(actual).toBeLessThan(dollars(highText));
        }
      }
      previousGuidance = { low, high };

      // Q&A: the operator introduces each analyst; participants name them with their firm.
      const introduced = [
        ...text.matchAll(/Our (?:first|next) question comes from (.+?) with (.+?)\.(?= Your line)/g),
      ];
      expect(introduced.length, `${ticker} analysts introduced`).toBeGreaterThanOrEqual(2);
      const analysts = (call.participants as any[]).filter((p) => p.role === "Analyst");
      for (const [, name, firm] of introduced)
        expect(
          analysts.some((a) => a.name === name && a.organization.replace(/\.$/, "") === firm),
          `${ticker}: ${name} with ${firm}`,
        ).toBe(true);
      analystsByCall.push(analysts.map((a) => a.name as string));
      ceos.add((call.participants as any[]).find((p) => p.role === "Chief Executive Officer")?.name);
      expect(text).toMatch(/This concludes today's conference call\./);

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
    });
    expect(ceos.size, `${ticker}: the same CEO on every call`).toBe(1);
    const seen = new Map<string, number>();
    for (const names of analystsByCall) for (const n of new Set(names)) seen.set(n, (seen.get(n) ?? 0) + 1);
    return {
      ticker,
      analystsRecur: [...seen.values()].some((count) => count >= 2),
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
    const now = Date.now();
    const upcoming = (body.earnings as any[]).find(
      (r) => r.eps === "" && easternToUtc(r.date, r.time).getTime() > now + 60_000,
    );
    expect(upcoming).toBeDefined();
    const releaseMs = easternToUtc(upcoming.date, upcoming.time).getTime();
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
    const now = Date.now();
    const upcoming = (body.earnings as any[]).find(
      (r) => r.eps === "" && easternToUtc(r.date, r.time).getTime() > now + 60_000,
    );
    const callStart = callStartOf(upcoming).getTime();
    expect(callStart).toBeGreaterThan(easternToUtc(upcoming.date, upcoming.time).getTime());
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
