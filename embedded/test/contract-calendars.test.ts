/** Contract §2 (calendars v2.1) over real HTTP against the real universe. */
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WireEarningsRecord, WireMaRecord } from "../universe/wire";
import { startTestEmbedded, type TestEmbedded } from "./harness";
import { badRequest, get, NO_DATA, type HttpAnswer } from "./http";

const EARNINGS = "/api/v2.1/calendar/earnings";
const MA = "/api/v2.1/calendar/ma";

let embedded: TestEmbedded;
let allEarnings: WireEarningsRecord[];
let allMa: WireMaRecord[];

const call = (path: string, query = "", headers: Record<string, string> = {}): Promise<HttpAnswer> =>
  get(`${embedded.url}${path}${query === "" ? "" : `?${query}`}`, {
    authorization: "token demo",
    ...headers,
  });

async function earnings(query = ""): Promise<WireEarningsRecord[]> {
  const answer = await call(EARNINGS, query);
  expect(answer.status, answer.text).toBe(200);
  return (answer.json as { earnings: WireEarningsRecord[] }).earnings;
}

async function deals(query = ""): Promise<WireMaRecord[]> {
  const answer = await call(MA, query);
  expect(answer.status, answer.text).toBe(200);
  return (answer.json as { ma: WireMaRecord[] }).ma;
}

/** Every row for a query, through pages of 1000 until the 404 that ends the selection. */
async function everything(path: string, member: "earnings" | "ma", query = ""): Promise<never[]> {
  const rows: never[] = [];
  for (let page = 0; ; page++) {
    const answer = await call(path, `pagesize=1000&page=${page}${query === "" ? "" : `&${query}`}`);
    if (answer.status === 404) return rows;
    expect(answer.status, answer.text).toBe(200);
    rows.push(...(answer.json as Record<string, never[]>)[member]!);
  }
}

const ids = (rows: readonly { id: string }[]) => rows.map((row) => row.id);

async function expect400(path: string, query: string, message: string | RegExp) {
  const answer = await call(path, query);
  expect(answer.status, query).toBe(400);
  if (typeof message === "string") expect(answer.json).toEqual(badRequest(message));
  else expect((answer.json as { errors: { value: string }[] }).errors[0]?.value).toMatch(message);
}

async function expect404(path: string, query: string) {
  const answer = await call(path, query);
  expect(answer.status, query).toBe(404);
  expect(answer.json).toEqual(NO_DATA);
}

/** Independent of the implementation: the first day a `date_expected` denotes. */
function expectedStart(value: string): string | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const quarter = /^(\d{4})-Q([1-4])$/.exec(value);
  if (quarter) return `${quarter[1]}-${["01", "04", "07", "10"][Number(quarter[2]) - 1]}-01`;
  if (/^\d{4}-\d{2}$/.test(value)) return `${value}-01`;
  return null;
}

function expectEarningsOrder(rows: readonly WireEarningsRecord[], direction: "asc" | "desc") {
  for (let i = 1; i < rows.length; i++) {
    const [a, b] = [rows[i - 1]!, rows[i]!];
    const ak = `${a.date} ${a.time}`;
    const bk = `${b.date} ${b.time}`;
    if (ak === bk) expect(a.ticker <= b.ticker, `${a.ticker} before ${b.ticker} at ${ak}`).toBe(true);
    else expect(direction === "asc" ? ak < bk : ak > bk, `${ak} then ${bk}`).toBe(true);
  }
}

beforeAll(async () => {
  embedded = await startTestEmbedded();
  allEarnings = await everything(EARNINGS, "earnings");
  allMa = await everything(MA, "ma");
}, 60_000);
afterAll(() => embedded.close());

describe("embedded §2: earnings calendar", () => {
  it("has data to test against, in the default date:desc order with time then ticker breaking ties", () => {
    // More than one default page, so pagesize and paging are observable.
    expect(allEarnings.length).toBeGreaterThan(150);
    expect(new Set(ids(allEarnings)).size).toBe(allEarnings.length);
    expectEarningsOrder(allEarnings, "desc");
    // The data must contain same-date rows for the tie rule to be exercised.
    expect(new Set(allEarnings.map((r) => `${r.date} ${r.time}`)).size).toBeLessThan(allEarnings.length);
  });

  it("defaults to page 0 of 100 rows", async () => {
    const rows = await earnings();
    expect(ids(rows)).toEqual(ids(allEarnings.slice(0, 100)));
    expect(ids(await earnings("page=0"))).toEqual(ids(rows));
  });

  it("pagesize: 1 and 1000 accepted, 0 and 1001 refused", async () => {
    expect(ids(await earnings("pagesize=1"))).toEqual([allEarnings[0]!.id]);
    expect(ids(await earnings("pagesize=1000"))).toEqual(ids(allEarnings.slice(0, 1000)));
    await expect400(EARNINGS, "pagesize=0", "pagesize must be between 1 and 1000");
    await expect400(EARNINGS, "pagesize=1001", "pagesize must be between 1 and 1000");
    await expect400(EARNINGS, "pagesize=ten", /^pagesize must be an integer/);
  });

  it("page: 0-based, 100000 accepted (empty: 404), 100001 and -1 refused, past the end 404", async () => {
    expect(ids(await earnings("pagesize=7&page=3"))).toEqual(ids(allEarnings.slice(21, 28)));
    await expect404(EARNINGS, "page=100000");
    await expect400(EARNINGS, "page=100001", "page must be between 0 and 100000");
    await expect400(EARNINGS, "page=-1", "page must be between 0 and 100000");
    const lastPage = Math.ceil(allEarnings.length / 100) - 1;
    expect(ids(await earnings(`page=${lastPage}`))).toEqual(ids(allEarnings.slice(lastPage * 100)));
    await expect404(EARNINGS, `page=${lastPage + 1}`);
  });

  it("parameters[date] selects exactly that day", async () => {
    const counts = new Map<string, number>();
    for (const r of allEarnings) counts.set(r.date, (counts.get(r.date) ?? 0) + 1);
    const day = [...counts].find(([, n]) => n >= 2)![0];
    const rows = await earnings(`parameters[date]=${day}&pagesize=1000`);
    expect(ids(rows)).toEqual(ids(allEarnings.filter((r) => r.date === day)));
    await expect400(
      EARNINGS,
      "parameters[date]=2025-02-30",
      /^parameters\[date\] must be a real calendar date/,
    );
    await expect400(
      EARNINGS,
      "parameters[date]=20250101",
      "parameters[date] must be a date in the form YYYY-MM-DD",
    );
  });

  it("parameters[date_from] / [date_to] are inclusive and ordered", async () => {
    const dates = [...new Set(allEarnings.map((r) => r.date))].sort();
    const from = dates[10]!;
    const to = dates[20]!;
    const rows = await everything(
      EARNINGS,
      "earnings",
      `parameters[date_from]=${from}&parameters[date_to]=${to}`,
    );
    expect(ids(rows)).toEqual(ids(allEarnings.filter((r) => r.date >= from && r.date <= to)));
    expect(rows.some((r: WireEarningsRecord) => r.date === from)).toBe(true);
    expect(rows.some((r: WireEarningsRecord) => r.date === to)).toBe(true);
    const fromOnly = await everything(EARNINGS, "earnings", `parameters[date_from]=${to}`);
    expect(ids(fromOnly)).toEqual(ids(allEarnings.filter((r) => r.date >= to)));
    const sameDay = await earnings(`parameters[date_from]=${from}&parameters[date_to]=${from}&pagesize=1000`);
    expect(ids(sameDay)).toEqual(ids(allEarnings.filter((r) => r.date === from)));
    await expect400(
      EARNINGS,
      `parameters[date_from]=${to}&parameters[date_to]=${from}`,
      "parameters[date_from] must be on or before parameters[date_to]",
    );
    await expect400(EARNINGS, "parameters[date_to]=2025-04-31", /^parameters\[date_to\]/);
  });

  it("parameters[tickers]: case-insensitive, up to 50", async () => {
    const tickers = [...new Set(allEarnings.map((r) => r.ticker))];
    const pick = [tickers[0]!, tickers[5]!];
    const rows = await earnings(`parameters[tickers]=${pick[0]!.toLowerCase()},${pick[1]}&pagesize=1000`);
    expect(ids(rows)).toEqual(ids(allEarnings.filter((r) => pick.includes(r.ticker))));
    expect(tickers.length).toBeGreaterThanOrEqual(51);
    const fifty = tickers.slice(0, 50);
    const fiftyRows = await everything(EARNINGS, "earnings", `parameters[tickers]=${fifty.join(",")}`);
    expect(ids(fiftyRows)).toEqual(ids(allEarnings.filter((r) => fifty.includes(r.ticker))));
    await expect400(
      EARNINGS,
      `parameters[tickers]=${tickers.slice(0, 51).join(",")}`,
      "parameters[tickers] accepts at most 50 tickers",
    );
  });

  it("parameters[importance] keeps importance >= value, 0..5", async () => {
    const rows = await everything(EARNINGS, "earnings", "parameters[importance]=4");
    const expected = allEarnings.filter((r) => r.importance >= 4);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(allEarnings.length);
    expect(ids(rows)).toEqual(ids(expected));
    expect(ids(await everything(EARNINGS, "earnings", "parameters[importance]=0"))).toEqual(ids(allEarnings));
    const five = allEarnings.filter((r) => r.importance >= 5);
    if (five.length > 0)
      expect(ids(await everything(EARNINGS, "earnings", "parameters[importance]=5"))).toEqual(ids(five));
    else await expect404(EARNINGS, "parameters[importance]=5");
    await expect400(EARNINGS, "parameters[importance]=6", "parameters[importance] must be between 0 and 5");
    await expect400(EARNINGS, "parameters[importance]=-1", "parameters[importance] must be between 0 and 5");
  });

  it("parameters[updated] keeps updated >= value, sorted by updated ascending over date_sort", async () => {
    const stamps = allEarnings.map((r) => r.updated).sort((a, b) => a - b);
    const threshold = stamps[Math.floor(stamps.length / 2)]!;
    const rows: WireEarningsRecord[] = await everything(
      EARNINGS,
      "earnings",
      `parameters[updated]=${threshold}&parameters[date_sort]=date:desc`,
    );
    expect(rows.length).toBe(allEarnings.filter((r) => r.updated >= threshold).length);
    expect(rows.length).toBeLessThan(allEarnings.length);
    expect(rows.every((r) => r.updated >= threshold)).toBe(true);
    for (let i = 1; i < rows.length; i++) expect(rows[i - 1]!.updated).toBeLessThanOrEqual(rows[i]!.updated);
    await expect400(EARNINGS, "parameters[updated]=yesterday", /^parameters\[updated\] must be a Unix time/);
  });

  it("parameters[date_sort]: date and date:asc oldest first, date:desc newest first, others refused", async () => {
    const asc: WireEarningsRecord[] = await everything(
      EARNINGS,
      "earnings",
      "parameters[date_sort]=date:asc",
    );
    expect(asc.length).toBe(allEarnings.length);
    expectEarningsOrder(asc, "asc");
    expect(ids(await everything(EARNINGS, "earnings", "parameters[date_sort]=date"))).toEqual(ids(asc));
    expect(ids(await everything(EARNINGS, "earnings", "parameters[date_sort]=date:desc"))).toEqual(
      ids(allEarnings),
    );
    await expect400(
      EARNINGS,
      "parameters[date_sort]=ticker",
      "parameters[date_sort] must be one of date, date:asc, date:desc",
    );
  });

  it("accepts percent-encoded brackets like plain ones", async () => {
    const ticker = allEarnings[0]!.ticker;
    const encoded = await earnings(`parameters%5Btickers%5D=${ticker}&parameters%5Bdate_sort%5D=date%3Aasc`);
    const plain = await earnings(`parameters[tickers]=${ticker}&parameters[date_sort]=date:asc`);
    expect(ids(encoded)).toEqual(ids(plain));
    expect(ids(encoded)).toEqual(ids([...allEarnings.filter((r) => r.ticker === ticker)].reverse()));
    await expect400(
      EARNINGS,
      "parameters%5Bimportance%5D=9",
      "parameters[importance] must be between 0 and 5",
    );
  });

  it("ignores unknown parameters", async () => {
    expect(ids(await earnings("pagesize=5&parameters[colour]=red&foo=1"))).toEqual(
      ids(allEarnings.slice(0, 5)),
    );
  });

  it("answers 404 no_data_found for an empty selection", async () => {
    await expect404(EARNINGS, "parameters[tickers]=ZZZZZZ");
    await expect404(EARNINGS, "parameters[date]=2099-01-01");
  });

  it("answers XML with Deprecation: true that reads back as the JSON", async () => {
    const query = "pagesize=3";
    const xml = await call(EARNINGS, query, { accept: "application/xml" });
    expect(xml.status).toBe(200);
    expect(xml.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(xml.headers.get("deprecation")).toBe("true");
    const json = await call(EARNINGS, query);
    expect(json.headers.get("deprecation")).toBeNull();
    const parsed = new XMLParser({ parseTagValue: false, isArray: (name) => name === "item" }).parse(
      xml.text,
    ) as {
      result: { earnings: { item: Record<string, string>[] } };
    };
    const asText = (json.json as { earnings: Record<string, unknown>[] }).earnings.map((row) =>
      Object.fromEntries(Object.entries(row).map(([k, v]) => [k, String(v)])),
    );
    expect(parsed.result.earnings.item).toEqual(asText);
  });
});

describe("embedded §2: M&A calendar", () => {
  it("has deals in every status, announced oldest first by default", async () => {
    expect(allMa.length).toBeGreaterThanOrEqual(300);
    expect(new Set(allMa.map((d) => d.deal_status))).toEqual(
      new Set(["Rumored", "Announced", "Regulatory Review", "Completed", "Canceled"]),
    );
    for (let i = 1; i < allMa.length; i++) expect(allMa[i - 1]!.date <= allMa[i]!.date).toBe(true);
    expect(ids(await deals("pagesize=10"))).toEqual(ids(allMa.slice(0, 10)));
    expect(ids(await everything(MA, "ma", "parameters[date_sort]=announced"))).toEqual(ids(allMa));
  });

  it("date_sort=expected: newest first by the earliest day denoted, deals without one left out", async () => {
    const rows: WireMaRecord[] = await everything(MA, "ma", "parameters[date_sort]=expected");
    const withDate = allMa.filter((d) => expectedStart(d.date_expected) !== null);
    expect(withDate.length).toBeLessThan(allMa.length);
    // Every documented form occurs, so the quarter and month rules are exercised.
    const forms = new Set(withDate.map((d) => d.date_expected.replace(/\d/g, "9")));
    expect(forms).toEqual(new Set(["9999-99-99", "9999-Q9", "9999-99"]));
    expect(new Set(ids(rows))).toEqual(new Set(ids(withDate)));
    for (let i = 1; i < rows.length; i++) {
      expect(expectedStart(rows[i - 1]!.date_expected)! >= expectedStart(rows[i]!.date_expected)!).toBe(true);
    }
  });

  it("date_sort=completed: newest first, deals not completed left out", async () => {
    const rows: WireMaRecord[] = await everything(MA, "ma", "parameters[date_sort]=completed");
    const completed = allMa.filter((d) => d.date_completed !== "");
    expect(completed.length).toBeGreaterThan(0);
    expect(completed.length).toBeLessThan(allMa.length);
    expect(new Set(ids(rows))).toEqual(new Set(ids(completed)));
    for (let i = 1; i < rows.length; i++)
      expect(rows[i - 1]!.date_completed >= rows[i]!.date_completed).toBe(true);
    await expect400(
      MA,
      "parameters[date_sort]=date:desc",
      "parameters[date_sort] must be one of announced, expected, completed",
    );
  });

  it("filters by announcement dates, tickers (acquirer or target), importance and updated", async () => {
    const dates = [...new Set(allMa.map((d) => d.date))].sort();
    const [from, to] = [dates[5]!, dates[40]!];
    expect(
      ids(await everything(MA, "ma", `parameters[date_from]=${from}&parameters[date_to]=${to}`)),
    ).toEqual(ids(allMa.filter((d) => d.date >= from && d.date <= to)));
    const target = allMa.find((d) => d.target_ticker !== "")!.target_ticker;
    const acquirer = allMa[0]!.acquirer_ticker;
    expect(
      ids(await everything(MA, "ma", `parameters[tickers]=${target.toLowerCase()},${acquirer}`)),
    ).toEqual(
      ids(
        allMa.filter(
          (d) =>
            [target, acquirer].includes(d.target_ticker) || [target, acquirer].includes(d.acquirer_ticker),
        ),
      ),
    );
    const important = allMa.filter((d) => d.importance >= 3);
    expect(important.length).toBeLessThan(allMa.length);
    expect(ids(await everything(MA, "ma", "parameters[importance]=3"))).toEqual(ids(important));
    const stamps = allMa.map((d) => d.updated).sort((a, b) => a - b);
    const threshold = stamps[Math.floor(stamps.length / 2)]!;
    const recent: WireMaRecord[] = await everything(MA, "ma", `parameters[updated]=${threshold}`);
    expect(recent.length).toBe(allMa.filter((d) => d.updated >= threshold).length);
    for (let i = 1; i < recent.length; i++)
      expect(recent[i - 1]!.updated).toBeLessThanOrEqual(recent[i]!.updated);
    // The announced order differs, so this proves the updated sort was applied.
    expect(ids(recent)).not.toEqual(ids(allMa.filter((d) => d.updated >= threshold)));
  });

  it("pages, validates and 404s like the earnings calendar", async () => {
    expect(ids(await deals("pagesize=5&page=2"))).toEqual(ids(allMa.slice(10, 15)));
    await expect400(MA, "pagesize=1001", "pagesize must be between 1 and 1000");
    await expect404(MA, "parameters[tickers]=ZZZZZZ");
    const xml = await call(MA, "pagesize=2", { accept: "application/xml" });
    expect(xml.headers.get("deprecation")).toBe("true");
    const parsed = new XMLParser({ parseTagValue: false, isArray: (name) => name === "item" }).parse(
      xml.text,
    ) as {
      result: { ma: { item: { id: string }[] } };
    };
    expect(ids(parsed.result.ma.item)).toEqual(ids(allMa.slice(0, 2)));
  });
});
