import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { GET as getEarnings } from "@/app/api/calendar/earnings/route";
import { GET as getFundamentals } from "@/app/api/fundamentals/[kind]/route";
import { earningsRowSchema } from "@/lib/schemas/calendar";
import { envelopeSchema, pagedEnvelopeSchema } from "@/lib/schemas/envelope";
import {
  FUNDAMENTALS_KINDS,
  fundamentalsItemSchemas,
  type FundamentalsKind,
} from "@/lib/schemas/fundamentals";
import { startTestEmbedded, type TestEmbedded } from "@/embedded/test/harness";
import { clearUpstreamEnv, setUpstreamEnv } from "@/test/support/upstream-env";
import { getRuntime } from "@/server/runtime";

/**
 * These tests check shapes, not speed: a statement the embedded service builds on first request can take longer
 * than the production 8 s deadline on a machine shared with other suites (npm run test:dates runs several dates at
 * once), and a 504 then would say nothing about the wire.
 */
const upstreamVars = (embedded: TestEmbedded) => ({
  UPSTREAM_BASE_URL: embedded.url,
  UPSTREAM_API_KEY: embedded.key,
  UPSTREAM_TIMEOUT_MS: "18000", // just under the suite's 20 s test timeout (vitest.config.ts)
});

/**
 * Every fundamentals kind through our route against the embedded service, checked against our app schemas, in both
 * wire dialects (docs/upstream.md §8): the contract's shapes and the real service's documented ones.
 */
describe.each(["contract", "documented"] as const)("fundamentals routes (%s wire)", (wire) => {
  let embedded: TestEmbedded;
  let symbol = "";

  beforeAll(async () => {
    embedded = await startTestEmbedded({ EMBEDDED_WIRE: wire });
    setUpstreamEnv(upstreamVars(embedded));
    const page = pagedEnvelopeSchema(earningsRowSchema).parse(
      await (
        await getEarnings(new Request("http://localhost/api/calendar/earnings?pageSize=1&importance=5"))
      ).json(),
    );
    symbol = page.data[0]!.ticker;
  });
  afterAll(async () => {
    await embedded?.close();
    clearUpstreamEnv();
  });
  beforeEach(() => {
    setUpstreamEnv(upstreamVars(embedded));
    getRuntime().upstream.cache.clear();
  });

  async function fetchKind<K extends FundamentalsKind>(kind: K, query: string) {
    const response = await getFundamentals(
      new Request(`http://localhost/api/fundamentals/${kind}?${query}`),
      {
        params: Promise.resolve({ kind }),
      },
    );
    const json: unknown = await response.json();
    if (response.status !== 200) throw new Error(`${kind}: ${response.status} ${JSON.stringify(json)}`);
    return envelopeSchema(z.array(fundamentalsItemSchemas[kind])).parse(json).data as z.infer<
      (typeof fundamentalsItemSchemas)[K]
    >[];
  }

  describe("against the embedded service", () => {
    it.each(FUNDAMENTALS_KINDS)("%s parses into our app schema", async (kind) => {
      const items = await fetchKind(kind, `symbols=${symbol}`);
      expect(items).toHaveLength(1);
      expect(items[0]?.symbol).toBe(symbol);
    });

    it("agrees across endpoints: quarterly diluted EPS equals the calendar's EPS for the same quarter", async () => {
      const reports = (await fetchKind("earning-reports", `symbols=${symbol}&period=3M`))[0]!.earningReports;
      expect(reports.length).toBeGreaterThan(0);
      expect(reports.every((r) => r.period === "3M")).toBe(true);
      const latest = reports[0]!;
      const calendar = pagedEnvelopeSchema(earningsRowSchema).parse(
        await (
          await getEarnings(
            new Request(`http://localhost/api/calendar/earnings?tickers=${symbol}&pageSize=20`),
          )
        ).json(),
      );
      const reported = calendar.data.filter((r) => r.eps !== null);
      expect(reported.map((r) => r.eps)).toContain(latest.dilutedEps);
    });

    it("balance sheet: assets equal liabilities plus equity, newest first", async () => {
      const rows = (await fetchKind("balance-sheet", `symbols=${symbol}&reportType=P`))[0]!.balanceSheet;
      expect(rows.length).toBeGreaterThan(0);
      const latest = rows[0]!;
      expect(latest.totalAssets!).toBeCloseTo(latest.totalLiabilitiesAndEquity!, -3);
      expect(latest.totalLiabilitiesAndEquity!).toBeCloseTo(
        latest.totalLiabilities! + latest.totalEquity!,
        -3,
      );
      const dates = rows.map((r) => r.reportDate!);
      expect([...dates].sort().reverse()).toEqual(dates);
    });

    it("valuation ratios: peRatio is 1 / earningYield", async () => {
      const ratios = (await fetchKind("valuation-ratios", `symbols=${symbol}`))[0]!.valuationRatios;
      const withPe = ratios.find((r) => r.peRatio !== null && r.earningYield !== null)!;
      expect(withPe.peRatio!).toBeCloseTo(1 / withPe.earningYield!, 1);
    });

    it("answers 404 for symbols the universe does not know", async () => {
      const response = await getFundamentals(
        new Request("http://localhost/api/fundamentals/company?symbols=ZZZZQ"),
        {
          params: Promise.resolve({ kind: "company" }),
        },
      );
      expect(response.status).toBe(404);
    });
  });
});
