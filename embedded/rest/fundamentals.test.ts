/** Contract §3 (fundamentals v2.1) over real HTTP, and its consistency with the calendar (§2) and v3 (§4). */
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmbedded, type TestEmbedded } from "../test/harness";
import { badRequest, get, NO_DATA, type HttpAnswer } from "../test/http";
import { buildUniverse } from "../universe/index";
import type { WireEarningsRecord } from "../universe/wire";

const BASE = "/api/v2.1/fundamentals";
const universe = buildUniverse(424_242);
const NWSC = universe.findCompany("NWSC")!;
const ALL_SYMBOLS = universe.companies.map((c) => c.symbol);

let embedded: TestEmbedded;
beforeAll(async () => {
  embedded = await startTestEmbedded({}, { universe });
});
afterAll(() => embedded.close());

const call = (path: string, query = "", headers: Record<string, string> = {}): Promise<HttpAnswer> =>
  get(`${embedded.url}${path}${query === "" ? "" : `?${query}`}`, {
    authorization: "token demo",
    ...headers,
  });

type Json = Record<string, unknown> & { result: Record<string, unknown>[] };
async function ok(path: string, query: string): Promise<Json> {
  const answer = await call(path, query);
  expect(answer.status, `${path}?${query}: ${answer.text.slice(0, 300)}`).toBe(200);
  return answer.json as Json;
}
async function expect400(path: string, query: string, message?: string) {
  const answer = await call(path, query);
  expect(answer.status, `${path}?${query}`).toBe(400);
  const body = answer.json as { ok: boolean; errors: { code: string; id: string; value: string }[] };
  if (message) expect(body).toEqual(badRequest(message));
  else expect(body.errors[0]?.code).toBe("bad_request");
}

const PATHS = [
  "",
  "/valuationRatios",
  "/earningRatios",
  "/operationRatios",
  "/financials",
  "/shareClass",
  "/earningReports",
  "/alphaBeta",
  "/company",
  "/companyProfile",
  "/shareClassProfile",
  "/assetClassification",
] as const;

const resultOf = (path: string, body: Json) =>
  path === "/earningReports" ? (body.data as { result: Record<string, unknown>[] }).result : body.result;

describe("selection parameters", () => {
  it("answers every path for one symbol with the company block, symbol, idType and id", async () => {
    for (const path of PATHS) {
      const body = await ok(`${BASE}${path}`, "symbols=nwsc");
      const [item] = resultOf(path, body);
      expect(item?.company).toEqual({
        primarySymbol: "NWSC",
        primaryExchange: NWSC.exchangeId,
        cik: NWSC.cik,
        valoren: NWSC.valoren,
        sedol: NWSC.sedol,
        standardName: "Northwind Semiconductor Inc.",
      });
      expect(item).toMatchObject({ symbol: "NWSC", idType: "SYMBOL", id: "NWSC" });
    }
  });

  it("accepts 200 symbols and refuses 201", async () => {
    const two = [...ALL_SYMBOLS, ...Array.from({ length: 200 - ALL_SYMBOLS.length }, (_, i) => `ZZ${i}`)];
    expect(two).toHaveLength(200);
    const body = await ok(`${BASE}/company`, `symbols=${two.join(",")}`);
    expect(body.result).toHaveLength(ALL_SYMBOLS.length);
    await expect400(
      `${BASE}/company`,
      `symbols=${[...two, "ZZZZ"].join(",")}`,
      "symbols must list at most 200 values",
    );
    await expect400(BASE, `symbols=${[...two, "ZZZZ"].join(",")}`, "symbols must list at most 200 values");
  });

  it("selects by cik (padded or not) and refuses both or neither", async () => {
    const body = await ok(`${BASE}/company`, `cik=${NWSC.cik},${String(Number(universe.companies[3]!.cik))}`);
    expect(body.result.map((r) => r.symbol)).toEqual(["NWSC", universe.companies[3]!.symbol]);
    expect(body.result[0]).toMatchObject({ idType: "CIK", id: NWSC.cik });
    await expect400(`${BASE}/company`, `symbols=NWSC&cik=${NWSC.cik}`, "use either symbols or cik, not both");
    await expect400(`${BASE}/company`, "", "symbols or cik is required");
    await expect400(`${BASE}/company`, "symbols=,,", "symbols must list at least one value");
  });

  it("leaves unknown symbols out and answers 404 when none is known", async () => {
    const body = await ok(`${BASE}/companyProfile`, "symbols=NOPE1,NWSC,NOPE2");
    expect(body.result.map((r) => r.symbol)).toEqual(["NWSC"]);
    for (const path of PATHS) {
      const answer = await call(`${BASE}${path}`, "symbols=NOPE1,NOPE2");
      expect(answer.status).toBe(404);
      expect(answer.json).toEqual(NO_DATA);
    }
    expect((await call(`${BASE}/company`, "cik=0000000001")).status).toBe(404);
  });

  it("validates asOf, and refuses it on /assetClassification", async () => {
    await expect400(
      `${BASE}/valuationRatios`,
      "symbols=NWSC&asOf=2024-13-01",
      "asOf must be a valid calendar date",
    );
    await expect400(
      `${BASE}/valuationRatios`,
      "symbols=NWSC&asOf=20240101",
      "asOf must be a date in YYYY-MM-DD format",
    );
    await expect400(
      `${BASE}/assetClassification`,
      "symbols=NWSC&asOf=2024-01-01",
      "asOf is not supported on this path",
    );
    await ok(`${BASE}/assetClassification`, "symbols=NWSC");
  });

  it("keeps history on or after asOf", async () => {
    const asOf = "2025-06-15";
    const checks: [string, (item: Record<string, unknown>) => string[]][] = [
      ["/valuationRatios", (i) => (i.valuationRatios as { id: { date: string } }[]).map((v) => v.id.date)],
      ["/earningRatios", (i) => (i.earningRatios as { id: { asOf: string } }[]).map((v) => v.id.asOf)],
      ["/alphaBeta", (i) => (i.alphaBeta as { id: { asOf: string } }[]).map((v) => v.id.asOf)],
      ["/shareClassProfile", (i) => (i.shareClassProfileHistory as { asOf: string }[]).map((v) => v.asOf)],
      ["/financials", (i) => (i.financials as { asOf: string }[]).map((v) => v.asOf)],
      [
        "/operationRatios",
        (i) =>
          (i.operationRatios as Record<string, { asOf: string }>[]).map((v) => Object.values(v)[0]!.asOf),
      ],
    ];
    for (const [path, dates] of checks) {
      const all = dates((await ok(`${BASE}${path}`, "symbols=NWSC")).result[0]!);
      const cut = dates((await ok(`${BASE}${path}`, `symbols=NWSC&asOf=${asOf}`)).result[0]!);
      expect(
        all.some((d) => d < asOf),
        path,
      ).toBe(true);
      expect(cut.length, path).toBeGreaterThan(0);
      expect(
        cut.every((d) => d >= asOf),
        path,
      ).toBe(true);
      expect(cut).toEqual(all.filter((d) => d >= asOf));
      expect([...all].sort().reverse(), `${path} newest first`).toEqual(all);
    }
  });

  it("answers XML when asked, with the same content", async () => {
    const answer = await call(`${BASE}/companyProfile`, "symbols=NWSC", { accept: "application/xml" });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toContain("application/xml");
    const parsed = new XMLParser({ parseTagValue: false }).parse(answer.text) as {
      response: { result: { item: { companyProfile: { city: string }; symbol: string } } };
    };
    expect(parsed.response.result.item.symbol).toBe("NWSC");
    expect(parsed.response.result.item.companyProfile.city).toBe(NWSC.headquarters.city);
    const json = await call(`${BASE}/companyProfile`, "symbols=NWSC");
    expect(json.headers.get("content-type")).toContain("application/json");
  });
});

describe("period and reportType", () => {
  it("accepts every enum value and refuses others", async () => {
    for (const path of ["/financials", "/earningReports"]) {
      for (const period of ["3M", "6M", "9M", "12M", "1Y", "ALL", "TTM"])
        await ok(`${BASE}${path}`, `symbols=NWSC&period=${period}`);
      for (const reportType of ["TTM", "A", "R", "P"])
        await ok(`${BASE}${path}`, `symbols=NWSC&reportType=${reportType}`);
      await expect400(
        `${BASE}${path}`,
        "symbols=NWSC&period=2Y",
        "period must be one of 3M, 6M, 9M, 12M, 1Y, ALL, TTM",
      );
      await expect400(
        `${BASE}${path}`,
        "symbols=NWSC&reportType=X",
        "reportType must be one of TTM, A, R, P",
      );
      await expect400(`${BASE}${path}`, "symbols=NWSC&period=3m");
    }
  });

  it("filters financials by period and reportType", async () => {
    const periods = async (query: string) =>
      (await ok(`${BASE}/financials`, `symbols=NWSC&${query}`)).result[0]!.financials as {
        period: string;
        reportType: string;
        aorOrRestate: string;
      }[];
    expect(new Set((await periods("period=ALL")).map((f) => f.period))).toEqual(
      new Set(["3M", "6M", "9M", "12M"]),
    );
    expect(new Set((await periods("period=3M")).map((f) => f.period))).toEqual(new Set(["3M"]));
    expect(new Set((await periods("period=1Y")).map((f) => f.period))).toEqual(new Set(["12M"]));
    expect(new Set((await periods("period=TTM")).map((f) => f.period))).toEqual(new Set(["TTM"]));
    expect(new Set((await periods("reportType=TTM")).map((f) => f.reportType))).toEqual(new Set(["TTM"]));
    expect(new Set((await periods("reportType=P")).map((f) => f.period))).toEqual(new Set(["3M", "12M"]));
    const restated = await periods("reportType=R");
    const original = await periods("reportType=A");
    expect(restated.length).toBeGreaterThan(0);
    expect(restated.length).toBeLessThan(original.length);
    expect(restated.every((f) => f.aorOrRestate === "RESTATE")).toBe(true);
  });
});

describe("shapes", () => {
  it("valuationRatios: monthly, every seed ratio as a number or null", async () => {
    const item = (await ok(`${BASE}/valuationRatios`, "symbols=NWSC")).result[0]!;
    const list = item.valuationRatios as Record<string, unknown>[];
    const FIELDS = [
      "payoutRatio",
      "sustainableGrowthRate",
      "cashReturn",
      "salesPerShare",
      "bookValuePerShare",
      "cfoPerShare",
      "fcfPerShare",
      "earningYield",
      "peRatio",
      "salesYield",
      "psRatio",
      "bookValueYield",
      "pbRatio",
      "cfYield",
      "pcfRatio",
      "fcfYield",
      "fcfRatio",
      "trailingDividendYield",
      "forwardDividendYield",
      "forwardEarningYield",
      "forwardPeRatio",
      "pegRatio",
      "pegPayback",
      "tangibleBookValuePerShare",
      "tangibleBvPerShare3YrAvg",
      "tangibleBvPerShare5YrAvg",
      "forwardDividend",
      "workingCapitalPerShare",
      "workingCapitalPerShare3YrAvg",
      "workingCapitalPerShare5YrAvg",
      "evToEbitda",
      "buyBackYield",
      "totalYield",
      "ratioPe5YearAverage",
      "priceChange1M",
      "normalizedPeRatio",
      "pricetoEbitda",
    ];
    // Monthly, newest first, from the month the ratios first have five years of reports behind them (spring 2023)
    // to the last month end before the service's now: how many depends on the date (35 on 2026-03-08), the shape not.
    expect(list.length).toBeGreaterThanOrEqual(12);
    const months = list.map((v) => (v.id as { date: string }).date.slice(0, 7));
    const monthBefore = (ym: string) => {
      const [y, m] = ym.split("-").map(Number) as [number, number];
      return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, "0")}`;
    };
    for (let i = 1; i < months.length; i++)
      expect(months[i], months[i - 1]).toBe(monthBefore(months[i - 1]!));
    for (const v of list) {
      expect(v.id).toEqual({
        shareClassId: NWSC.shareClassId,
        date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      });
      for (const f of FIELDS) expect(v[f] === null || typeof v[f] === "number", f).toBe(true);
    }
    expect(typeof list[0]!.peRatio).toBe("number");
    const today = new Date(embedded.now()).toISOString().slice(0, 10);
    const newest = (list[0]!.id as { date: string }).date;
    expect(newest <= today).toBe(true);
    expect(embedded.now() - Date.parse(newest)).toBeLessThan(32 * 86_400_000);
  });

  it("operationRatios, earningRatios, alphaBeta, shareClass, companyProfile, assetClassification", async () => {
    const op = (await ok(`${BASE}/operationRatios`, "symbols=NWSC")).result[0]!.operationRatios as Record<
      string,
      Record<string, unknown>
    >[];
    expect(Object.keys(op[0]!).every((k) => ["3M", "6M", "9M", "1Y"].includes(k))).toBe(true);
    expect(op.some((o) => "1Y" in o)).toBe(true);
    for (const [k, v] of Object.entries(op[0]!)) {
      expect(v).toMatchObject({ period: k, fiscalYearEnd: "12", reportType: "A" });
      for (const f of [
        "assetsTurnover",
        "cashConversionCycle",
        "daysInInventory",
        "EBITDAMargin",
        "grossMargin",
        "quickRatio",
        "netIncomeGrowth",
      ])
        expect(typeof v[f], f).toBe("number");
    }
    const er = await ok(`${BASE}/earningRatios`, "symbols=NWSC");
    expect(typeof er.processingTimeMillis).toBe("number");
    const e0 = (er.result[0]!.earningRatios as Record<string, unknown>[])[0]!;
    expect(e0).toMatchObject({
      id: { shareClassId: NWSC.shareClassId, reportType: "A", aorOrRestate: "AOR" },
      fiscalYearEnd: 12,
    });
    for (const f of ["dilutedEpsGrowth", "dilutedConstEpsGrowth", "equityPerShareGrowth"])
      expect(typeof e0[f]).toBe("number");
    const ab = (await ok(`${BASE}/alphaBeta`, "symbols=NWSC")).result[0]!.alphaBeta as {
      id: { period: string };
      beta: number;
    }[];
    expect(new Set(ab.map((a) => a.id.period))).toEqual(new Set(["36M", "60M"]));
    expect(ab[0]!.beta).toBeGreaterThan(0);
    const sc = (await ok(`${BASE}/shareClass`, "symbols=NWSC")).result[0]!.shareClass as Record<
      string,
      unknown
    >;
    expect(sc).toMatchObject({
      shareClassId: NWSC.shareClassId,
      symbol: "NWSC",
      exchangeId: "NAS",
      currency: "USD",
      isDepositaryRecipt: false,
      isPrimary: true,
    });
    expect(sc.ipoDate).toMatch(/^\d+$/);
    expect(Number.isInteger(sc.marketCap) && Number.isInteger(sc.enterpriseValue)).toBe(true);
    const cp = (await ok(`${BASE}/companyProfile`, "symbols=NWSC")).result[0]!.companyProfile as Record<
      string,
      unknown
    >;
    expect(Object.values(cp).every((v) => typeof v === "string")).toBe(true);
    expect(Object.keys(cp)).toHaveLength(16);
    const ac = (await ok(`${BASE}/assetClassification`, "symbols=NWSC")).result[0]!.assetClassification;
    expect(ac).toMatchObject({
      sic: "3674",
      naics: "334413",
      msSectorCode: 311,
      msSectorName: "Technology",
    });
  });

  it("the combined path carries every section and processingTimeMillis", async () => {
    const item = (await ok(BASE, "symbols=NWSC,NOPE")).result[0]!;
    for (const k of [
      "company",
      "companyProfile",
      "shareClass",
      "earningReports",
      "valuationRatios",
      "operationRatios",
      "alphaBeta",
      "earningRatios",
      "assetClassification",
      "shareClassProfileHistory",
    ])
      expect(item[k], k).toBeTruthy();
    expect(typeof item.processingTimeMillis).toBe("number");
    expect("3M" in (item.earningReports as object)).toBe(true);
  });

  it("earningReports is wrapped in {ok, errors, data: {result}} with periods 3M/6M/12M", async () => {
    const body = (await call(`${BASE}/earningReports`, "symbols=NWSC")).json as {
      ok: boolean;
      errors: unknown[];
      data: { result: { earningReports: Record<string, Record<string, unknown>>[] }[] };
    };
    expect(body.ok).toBe(true);
    expect(body.errors).toEqual([]);
    const reports = body.data.result[0]!.earningReports;
    expect(new Set(reports.flatMap((r) => Object.keys(r)))).toEqual(new Set(["3M", "6M", "12M"]));
    for (const r of reports) {
      const q = r["3M"]!;
      expect(q.dilutedEPS as number).toBeLessThanOrEqual(q.continuingAndDiscontinuedBasicEPS as number);
      expect(q.basicAverageShares as number).toBeLessThanOrEqual(q.dilutedAverageShares as number);
    }
  });
});

describe("cross-endpoint consistency", () => {
  it("earningReports 3M dilutedEPS equals the calendar's EPS for the same fiscal quarter", async () => {
    const symbols = ALL_SYMBOLS.slice(0, 40);
    const reports = (await call(`${BASE}/earningReports`, `symbols=${symbols.join(",")}&period=3M`)).json as {
      data: {
        result: { symbol: string; earningReports: { "3M": { asOf: string; dilutedEPS: number } }[] }[];
      };
    };
    const cal = (
      await call(
        "/api/v2.1/calendar/earnings",
        `pagesize=1000&parameters[tickers]=${symbols.slice(0, 40).join(",")}`,
      )
    ).json as { earnings: WireEarningsRecord[] };
    let compared = 0;
    for (const r of cal.earnings.filter((e) => e.eps !== "")) {
      const c = universe.findCompany(r.ticker)!;
      const n = Number(r.period.slice(1));
      const endMonth = ((c.fiscalYearEndMonth - 3 * (4 - n) - 1 + 24) % 12) + 1;
      const endYear = endMonth <= c.fiscalYearEndMonth ? r.period_year : r.period_year - 1;
      const prefix = `${endYear}-${String(endMonth).padStart(2, "0")}`;
      const item = reports.data.result.find((x) => x.symbol === r.ticker)!;
      const rep = item.earningReports.find((e) => e["3M"].asOf.startsWith(prefix));
      expect(rep, `${r.ticker} ${r.period} ${r.period_year}`).toBeDefined();
      expect(rep!["3M"].dilutedEPS.toFixed(3)).toBe(r.eps);
      compared++;
    }
    expect(compared).toBeGreaterThan(100);
  });

  it("valuation ratios obey the seed's definitions and market cap / price = shares of the profile", async () => {
    const q = `symbols=${ALL_SYMBOLS.join(",")}`;
    const vr = (await ok(`${BASE}/valuationRatios`, q)).result;
    const sp = (await ok(`${BASE}/shareClassProfile`, q)).result;
    const sc = (await ok(`${BASE}/shareClass`, q)).result;
    const close = (a: number, b: number) => Math.abs(a - b) <= 1e-5 * Math.max(1, Math.abs(a), Math.abs(b));
    let nulls = 0;
    vr.forEach((item, i) => {
      const profile = sp[i]!.shareClassProfileHistory as {
        asOf: string;
        marketCap: number;
        sharesOutstanding: number;
      }[];
      expect((sc[i]!.shareClass as { marketCap: number }).marketCap).toBe(profile[0]!.marketCap);
      const byDate = new Map(profile.map((p) => [p.asOf, p]));
      for (const v of (item.valuationRatios as Record<string, number | null>[]).slice(0, 13)) {
        if (v.earningYield! > 0) expect(close(v.peRatio!, 1 / v.earningYield!)).toBe(true);
        else {
          expect(v.peRatio).toBeNull();
          nulls++;
        }
        if (v.bookValueYield! > 0) expect(close(v.pbRatio!, 1 / v.bookValueYield!)).toBe(true);
        else expect(v.pbRatio).toBeNull();
        const price = v.salesPerShare! / v.salesYield!;
        const p = byDate.get((v.id as unknown as { date: string }).date)!;
        expect(Math.abs(p.marketCap / price - p.sharesOutstanding) / p.sharesOutstanding).toBeLessThan(1e-5);
      }
    });
    expect(nulls).toBeGreaterThan(0);
  });

  it("operationRatios: cashConversionCycle = daysInInventory + daysInSales − daysInPayment", async () => {
    const items = (await ok(`${BASE}/operationRatios`, `symbols=${ALL_SYMBOLS.join(",")}`)).result;
    for (const item of items)
      for (const o of (item.operationRatios as Record<string, Record<string, number>>[]).slice(0, 8))
        for (const r of Object.values(o))
          expect(
            Math.abs(r.cashConversionCycle! - (r.daysInInventory! + r.daysInSales! - r.daysInPayment!)),
          ).toBeLessThan(1e-6);
  });

  it("financials balance (assets = liabilities + equity, FCF = OCF − capex) and agree with the v3 balance sheet", async () => {
    const fin = (await ok(`${BASE}/financials`, `symbols=${ALL_SYMBOLS.slice(0, 30).join(",")}&period=3M`))
      .result;
    const v3 = (
      await call(
        "/api/v3/fundamentals/balance-sheet",
        `symbols=${ALL_SYMBOLS.slice(0, 30).join(",")}&reportType=P`,
      )
    ).json as {
      data: { symbol: string; balance_sheet: { data: Record<string, number | string>[] } }[];
    };
    const now = new Date(embedded.now()).toISOString().slice(0, 10);
    fin.forEach((item, i) => {
      const rows = v3.data[i]!.balance_sheet.data;
      expect(v3.data[i]!.symbol).toBe(item.symbol);
      for (const f of item.financials as {
        asOf: string;
        balanceSheet: Record<string, number>;
        cashFlowStatement: Record<string, number>;
      }[]) {
        const b = f.balanceSheet;
        expect(b.totalAssets).toBe(b.totalLiabilities! + b.stockholdersEquity!);
        expect(f.cashFlowStatement.freeCashFlow).toBe(
          f.cashFlowStatement.operatingCashFlow! - f.cashFlowStatement.capitalExpenditure!,
        );
        expect(f.asOf < now).toBe(true);
        const row = rows.find((r) => r.report_date === f.asOf)!;
        expect(row.total_assets).toBe(b.totalAssets);
        expect(row.total_equity).toBe(b.stockholdersEquity);
      }
      expect(rows).toHaveLength((item.financials as unknown[]).length);
    });
  });

  it("shows no quarter before its report time", async () => {
    const fin = (await ok(`${BASE}/financials`, `symbols=${ALL_SYMBOLS.join(",")}&period=3M`)).result;
    const cal = universe.earningsRecords(new Date(embedded.now()));
    for (const item of fin) {
      const newest = (item.financials as { asOf: string }[])[0]!.asOf;
      const future = cal.filter((r) => r.ticker === item.symbol && r.eps === "");
      // The newest statement is older than every quarter still waiting for its report.
      for (const r of future) expect(newest < r.date).toBe(true);
    }
  });
});
