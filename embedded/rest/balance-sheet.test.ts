/** Contract §4 (fundamentals v3 balance sheet) over real HTTP. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmbedded, type TestEmbedded } from "../test/harness";
import { badRequest, get, NO_DATA, type HttpAnswer } from "../test/http";
import { buildUniverse } from "../universe/index";

const PATH = "/api/v3/fundamentals/balance-sheet";
const universe = buildUniverse(77);
const SYMBOLS = universe.companies.map((c) => c.symbol);

let embedded: TestEmbedded;
beforeAll(async () => {
  embedded = await startTestEmbedded({}, { universe });
});
afterAll(() => embedded.close());

type Row = Record<string, string | number>;
interface Body {
  ok: string;
  data: { symbol: string; balance_sheet: { type: string; data: Row[] } }[];
}
const call = (query: string): Promise<HttpAnswer> =>
  get(`${embedded.url}${PATH}?${query}`, { authorization: "token demo" });
async function rows(query: string): Promise<Body> {
  const answer = await call(query);
  expect(answer.status, `${query}: ${answer.text.slice(0, 200)}`).toBe(200);
  return answer.json as Body;
}
async function expect400(query: string, message: string) {
  const answer = await call(query);
  expect(answer.status, query).toBe(400);
  expect(answer.json).toEqual(badRequest(message));
}

const ROW_FIELDS = [
  "symbol",
  "fiscal_year",
  "fiscal_period",
  "report_date",
  "publish_date",
  "currency",
  "report_type",
  "cash_and_cash_equivalents",
  "short_term_investments",
  "accounts_receivable",
  "inventories",
  "total_current_assets",
  "property_plant_and_equipment_net",
  "goodwill",
  "intangible_assets",
  "total_noncurrent_assets",
  "total_assets",
  "accounts_payable",
  "short_term_debt",
  "total_current_liabilities",
  "long_term_debt",
  "total_noncurrent_liabilities",
  "total_liabilities",
  "common_stock",
  "retained_earnings",
  "total_equity",
  "total_liabilities_and_equity",
];

describe("v3 balance sheet", () => {
  it('answers ok as the string "true" and snake_case rows, newest first, that balance', async () => {
    const body = await rows("symbols=NWSC");
    expect(body.ok).toBe("true");
    expect(body.data).toHaveLength(1);
    expect(body.data[0]!.symbol).toBe("NWSC");
    expect(body.data[0]!.balance_sheet.type).toBe("general");
    const data = body.data[0]!.balance_sheet.data;
    expect(data.length).toBeGreaterThan(12);
    const today = new Date(embedded.now()).toISOString().slice(0, 10);
    for (const row of data) {
      for (const f of ROW_FIELDS) expect(row[f], f).toBeDefined();
      expect(row.total_assets).toBe((row.total_liabilities as number) + (row.total_equity as number));
      expect(row.total_liabilities_and_equity).toBe(row.total_assets);
      expect(row.total_assets).toBe(
        (row.total_current_assets as number) + (row.total_noncurrent_assets as number),
      );
      expect(["Q1", "Q2", "Q3", "Q4", "FY"]).toContain(row.fiscal_period);
      expect((row.publish_date as string) <= today).toBe(true);
      expect(row.report_type).toBe("A");
    }
    const dates = data.map((r) => r.report_date as string);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(data.some((r) => r.fiscal_period === "FY")).toBe(true);
  });

  it("applies from (YYYY-MM-DD, YTD, 1MONTH, 1m, 1M) and to (inclusive)", async () => {
    const all = (await rows("symbols=NWSC")).data[0]!.balance_sheet.data;
    const someDate = all[6]!.report_date as string;
    const from = (await rows(`symbols=NWSC&from=${someDate}`)).data[0]!.balance_sheet.data;
    expect(from.every((r) => (r.report_date as string) >= someDate)).toBe(true);
    expect(from.some((r) => r.report_date === someDate)).toBe(true);
    const to = (await rows(`symbols=NWSC&to=${someDate}`)).data[0]!.balance_sheet.data;
    expect(to.every((r) => (r.report_date as string) <= someDate)).toBe(true);
    expect(to.some((r) => r.report_date === someDate)).toBe(true);
    const year = String(new Date(embedded.now()).getUTCFullYear());
    const ytd = (await rows("symbols=NWSC&from=YTD")).data[0]!.balance_sheet.data;
    expect(ytd.every((r) => (r.report_date as string) >= `${year}-01-01`)).toBe(true);
    const monthAgo = new Date(embedded.now() - 32 * 86_400_000).toISOString().slice(0, 10);
    for (const f of ["1MONTH", "1m", "1M"]) {
      const recent = (await rows(`symbols=NWSC&from=${f}`)).data[0]!.balance_sheet.data;
      expect(
        recent.every((r) => (r.report_date as string) >= monthAgo),
        f,
      ).toBe(true);
    }
    await expect400("symbols=NWSC&from=2MONTH", "from must be YYYY-MM-DD, YTD, 1MONTH, 1m or 1M");
    await expect400("symbols=NWSC&from=2025-02-30", "from must be a date in YYYY-MM-DD format");
    await expect400("symbols=NWSC&to=yesterday", "to must be a date in YYYY-MM-DD format");
    await expect400("symbols=NWSC&from=2025-06-01&to=2025-01-01", "from must not be after to");
  });

  it("applies reportType", async () => {
    for (const t of ["TTM", "A", "R", "P"]) {
      const data = (await rows(`symbols=NWSC&reportType=${t}`)).data[0]!.balance_sheet.data;
      expect(data.length, t).toBeGreaterThan(0);
      expect(data.every((r) => r.report_type === t)).toBe(true);
      if (t !== "A") expect(data.some((r) => r.fiscal_period === "FY")).toBe(false);
    }
    await expect400("symbols=NWSC&reportType=Q", "reportType must be one of TTM, A, R, P");
  });

  it("requires symbols, accepts 200, refuses 201, leaves unknown ones out, 404 when none known", async () => {
    await expect400("", "symbols is required");
    const two = [...SYMBOLS, ...Array.from({ length: 200 - SYMBOLS.length }, (_, i) => `QQ${i}`)];
    const body = await rows(`symbols=${two.join(",")}&from=YTD`);
    expect(body.data.map((d) => d.symbol)).toEqual(SYMBOLS);
    await expect400(`symbols=${[...two, "QQQQ"].join(",")}`, "symbols must list at most 200 values");
    expect((await rows("symbols=NOPE,NWSC")).data.map((d) => d.symbol)).toEqual(["NWSC"]);
    const none = await call("symbols=NOPE,NOPE2");
    expect(none.status).toBe(404);
    expect(none.json).toEqual(NO_DATA);
  });
});
