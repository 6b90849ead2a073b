import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { envelopeSchema } from "@/lib/schemas/envelope";
import { fundamentalsItemSchemas } from "@/lib/schemas/fundamentals";
import { z } from "zod";
import { clearUpstreamEnv, setUpstreamEnv } from "@/test/support/upstream-env";
import { json, noDataBody, startFakeUpstream, type FakeUpstream } from "@/test/support/fake-upstream";
import balanceSheet from "@/test/fixtures/upstream/balance-sheet.json";
import valuationRatios from "@/test/fixtures/upstream/valuation-ratios.json";
import assetClassification from "@/test/fixtures/upstream/asset-classification.json";
import { GET } from "./[kind]/route";
import { getRuntime } from "@/server/runtime";

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
    if (url.pathname.endsWith("/balance-sheet")) json(res, 200, balanceSheet);
    else if (url.pathname.endsWith("/assetClassification")) json(res, 200, assetClassification);
    else json(res, 200, valuationRatios);
  };
});

const call = (kind: string, query: string) =>
  GET(new Request(`http://localhost/api/fundamentals/${kind}${query}`), {
    params: Promise.resolve({ kind }),
  });

describe("GET /api/fundamentals/[kind]", () => {
  it("answers valuation ratios in the envelope, translating kind and query to the upstream's", async () => {
    const response = await call("valuation-ratios", "?symbols=nwsc&asOf=2025-01-01");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toMatch(/^private, max-age=(599|600)$/);
    const body = envelopeSchema(z.array(fundamentalsItemSchemas["valuation-ratios"])).parse(
      await response.json(),
    );
    expect(body.data[0]?.valuationRatios[0]?.peRatio).toBe(24.5);
    expect(fake.requests[0]?.path).toBe("/api/v2.1/fundamentals/valuationRatios");
    expect(fake.requests[0]?.query.get("symbols")).toBe("NWSC");
    expect(fake.requests[0]?.query.get("asOf")).toBe("2025-01-01");
  });

  it("answers the v3 balance sheet with from/to/reportType", async () => {
    const response = await call("balance-sheet", "?symbols=NWSC&from=YTD&reportType=A");
    expect(response.status).toBe(200);
    const body = envelopeSchema(z.array(fundamentalsItemSchemas["balance-sheet"])).parse(
      await response.json(),
    );
    expect(body.data[0]?.balanceSheet[0]?.totalAssets).toBe(352583000000);
    expect(fake.requests[0]?.path).toBe("/api/v3/fundamentals/balance-sheet");
    expect(fake.requests[0]?.query.get("from")).toBe("YTD");
  });

  it("answers 404 for an unknown kind", async () => {
    const response = await call("horoscope", "?symbols=NWSC");
    expect(response.status).toBe(404);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("not_found");
    expect(body.error.message).toContain("valuation-ratios");
    expect(fake.requests).toHaveLength(0);
  });

  it("answers 404 not_found when the upstream knows none of the symbols", async () => {
    fake.handler = (_req, res) => json(res, 404, noDataBody);
    const response = await call("company", "?symbols=ZZZZ");
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { code: "not_found", message: "No fundamentals found for ZZZZ." },
    });
  });

  it.each([
    ["company", "", "symbols is required"],
    [
      "company",
      `?symbols=${Array.from({ length: 201 }, (_, i) => `S${i}`).join(",")}`,
      "symbols must list at most 200 symbols",
    ],
    ["company", "?symbols=A&asOf=01/02/2025", "asOf must be a date in the form YYYY-MM-DD"],
    ["asset-classification", "?symbols=A&asOf=2025-01-01", "asOf is not supported for asset-classification"],
    [
      "valuation-ratios",
      "?symbols=A&period=3M",
      "period is only supported for financials and earning-reports",
    ],
    ["financials", "?symbols=A&period=2Y", "period must be one of 3M, 6M, 9M, 12M, 1Y, ALL, TTM"],
    ["earning-reports", "?symbols=A&reportType=X", "reportType must be one of TTM, A, R, P"],
    [
      "balance-sheet",
      "?symbols=A&from=last-week",
      "from must be a date in the form YYYY-MM-DD, YTD, 1MONTH or 1M",
    ],
  ])("%s%s → 400 %s", async (kind, query, message) => {
    const response = await call(kind, query);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: "invalid_parameter", message } });
    expect(fake.requests).toHaveLength(0);
  });

  it("passes period and reportType on financials", async () => {
    fake.handler = (_req, res) => json(res, 200, { result: [{ symbol: "A", company: {}, financials: [] }] });
    const response = await call("financials", "?symbols=A&period=TTM&reportType=R");
    expect(response.status).toBe(200);
    expect(fake.requests[0]?.query.get("period")).toBe("TTM");
    expect(fake.requests[0]?.query.get("reportType")).toBe("R");
  });
});
