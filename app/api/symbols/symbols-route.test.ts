import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { rankSymbols } from "@/server/upstream/symbols";
import { clearUpstreamEnv, setUpstreamEnv } from "@/test/support/upstream-env";
import { json, startFakeUpstream, type FakeUpstream } from "@/test/support/fake-upstream";
import { GET } from "./route";
import { getRuntime } from "@/server/runtime";

const record = (ticker: string, name: string, exchange = "NYSE") => ({
  id: ticker,
  date: "2026-01-01",
  ticker,
  name,
  exchange,
});

let fake: FakeUpstream;

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(async () => {
  await fake.close();
  clearUpstreamEnv();
});
beforeEach(() => {
  setUpstreamEnv({ UPSTREAM_BASE_URL: fake.url, UPSTREAM_API_KEY: "k" });
  getRuntime().upstream.cache.clear();
  fake.requests = [];
});

describe("rankSymbols", () => {
  const directory = [
    { ticker: "NWSCX", name: "Northwind Capital", exchange: null },
    { ticker: "ANW", name: "Alpine Northwind Partners", exchange: null },
    { ticker: "NWSC", name: "Northwind Semiconductor Inc.", exchange: "NASDAQ" },
    { ticker: "NW", name: "Newell Works", exchange: null },
    { ticker: "BRK", name: "Birchwood Holdings", exchange: null },
  ];

  it("puts the exact ticker first, then ticker prefixes, then names", () => {
    expect(rankSymbols(directory, "nwsc").map((s) => s.ticker)).toEqual(["NWSC", "NWSCX"]);
    expect(rankSymbols(directory, "nw").map((s) => s.ticker)).toEqual(["NW", "NWSC", "NWSCX"]);
  });

  it("matches every query word against the starts of name words", () => {
    expect(rankSymbols(directory, "northwind semi").map((s) => s.ticker)).toEqual(["NWSC"]);
    expect(rankSymbols(directory, "northwind").map((s) => s.ticker)).toEqual(["NWSC", "NWSCX", "ANW"]);
    expect(rankSymbols(directory, "holdings").map((s) => s.ticker)).toEqual(["BRK"]);
  });

  it("returns at most 20", () => {
    const many = Array.from({ length: 50 }, (_, i) => ({
      ticker: `A${i}`,
      name: `Acme ${i}`,
      exchange: null,
    }));
    expect(rankSymbols(many, "a")).toHaveLength(20);
  });
});

describe("GET /api/symbols", () => {
  it("builds the directory by paging through the whole earnings calendar, once per hour", async () => {
    const page0 = Array.from({ length: 1000 }, (_, i) => record(`T${i}`, `Company ${i}`));
    fake.handler = (_req, res, url) => {
      const page = url.searchParams.get("page");
      if (page === "0") json(res, 200, { earnings: page0 });
      else
        json(res, 200, {
          earnings: [record("NWSC", "Northwind Semiconductor Inc.", "NASDAQ"), record("T1", "Dup")],
        });
    };
    const response = await GET(new Request("http://localhost/api/symbols?q=nwsc"));
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toMatch(/^private, max-age=(3599|3600)$/);
    const body = (await response.json()) as { data: unknown[]; meta: { stale: boolean } };
    expect(body.data).toEqual([{ ticker: "NWSC", name: "Northwind Semiconductor Inc.", exchange: "NASDAQ" }]);
    expect(fake.requests.map((r) => r.query.get("page"))).toEqual(["0", "1"]);
    expect(fake.requests[0]?.query.get("pagesize")).toBe("1000");

    const again = (await (await GET(new Request("http://localhost/api/symbols?q=company 12"))).json()) as {
      data: { ticker: string }[];
    };
    expect(again.data[0]?.ticker).toBe("T12");
    expect(fake.requests).toHaveLength(2);
  });

  it("refuses a missing or empty q", async () => {
    const response = await GET(new Request("http://localhost/api/symbols?q=%20"));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { code: "invalid_parameter", message: "q is required" },
    });
  });
});
