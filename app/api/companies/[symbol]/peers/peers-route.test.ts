import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getRuntime } from "@/server/runtime";
import { clearUpstreamEnv, setUpstreamEnv } from "@/test/support/upstream-env";
import { json, startFakeUpstream, type FakeUpstream } from "@/test/support/fake-upstream";
import { GET } from "./route";

/**
 * Peers from the service's classification: the symbol directory (the earnings calendar) and the asset
 * classification of its companies, read 200 symbols a request. A fake upstream with a small universe: four
 * semiconductor makers, one semiconductor-equipment maker (same group, other industry), two banks.
 */

const UNIVERSE: Record<string, [name: string, sector: string, group: string, industry: string]> = {
  NWSC: ["Northwind Semiconductor", "311", "31110", "31110020"],
  CHIP: ["Chipworks", "311", "31110", "31110020"],
  WAFR: ["Wafer Labs", "311", "31110", "31110020"],
  FABX: ["Fab Express", "311", "31110", "31110020"],
  SEMQ: ["Semi Equipment Co", "311", "31110", "31110010"],
  BANK: ["First Bank", "103", "10320", "10320010"],
  LOAN: ["Loan Co", "103", "10320", "10320010"],
};

let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(async () => {
  await fake.close();
  clearUpstreamEnv();
});
beforeEach(() => {
  setUpstreamEnv({ UPSTREAM_BASE_URL: fake.url, UPSTREAM_API_KEY: "test-key" });
  getRuntime().upstream.cache.clear();
  fake.requests = [];
  fake.handler = (_req, res, url) => {
    if (url.pathname.includes("calendar/earnings")) {
      json(res, 200, {
        earnings: Object.entries(UNIVERSE).map(([ticker, [name]], i) => ({
          id: `e${i}`,
          date: "2026-01-28",
          ticker,
          name,
          exchange: "NASDAQ",
          importance: 3,
        })),
      });
      return;
    }
    const symbols = (url.searchParams.get("symbols") ?? "").split(",").filter((s) => UNIVERSE[s]);
    json(res, 200, {
      result: symbols.map((symbol) => {
        const [name, sector, group, industry] = UNIVERSE[symbol]!;
        return {
          company: { primarySymbol: symbol, standardName: name },
          assetClassification: {
            msSectorCode: sector,
            msSectorName: sector === "311" ? "Technology" : "Financial Services",
            msGroupCode: group,
            msGroupName: group,
            msIndustryCode: industry,
            msIndustryName: industry === "31110020" ? "Semiconductors" : industry,
          },
          symbol,
          idType: "SYMBOL",
          id: symbol,
        };
      }),
    });
  };
});

const call = (symbol: string) =>
  GET(new Request(`http://localhost/api/companies/${symbol}/peers`), {
    params: Promise.resolve({ symbol }),
  });

describe("GET /api/companies/[symbol]/peers", () => {
  it("suggests the companies of the same industry, by name, without the company itself", async () => {
    const response = await call("nwsc");
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      data: { symbol: string; basis: string; label: string; peers: { ticker: string; name: string }[] };
    };
    expect(body.data).toMatchObject({ symbol: "NWSC", basis: "industry", label: "Semiconductors" });
    expect(body.data.peers.map((p) => [p.ticker, p.name])).toEqual([
      ["CHIP", "Chipworks"],
      ["FABX", "Fab Express"],
      ["WAFR", "Wafer Labs"],
    ]);
  });

  it("widens to the industry group when the industry holds fewer than three others", async () => {
    const body = (await (await call("SEMQ")).json()) as {
      data: { basis: string; peers: { ticker: string }[] };
    };
    expect(body.data.basis).toBe("group");
    expect(body.data.peers.map((p) => p.ticker)).toEqual(["CHIP", "FABX", "NWSC", "WAFR"]);
  });

  it("falls back to the sector, and answers 400 for a malformed symbol", async () => {
    const bank = (await (await call("BANK")).json()) as {
      data: { basis: string; peers: { ticker: string }[] };
    };
    expect(bank.data.basis).toBe("sector");
    expect(bank.data.peers.map((p) => p.ticker)).toEqual(["LOAN"]);
    expect((await call("not a symbol")).status).toBe(400);
  });
});
