import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callInsightsResponseSchema } from "@/lib/schemas/insights";
import { clearUpstreamEnv, setUpstreamEnv } from "@/test/support/upstream-env";
import { json, startFakeUpstream, type FakeUpstream } from "@/test/support/fake-upstream";
import { GET } from "./route";

const CURRENT = "c".repeat(24);
const PREVIOUS = "b".repeat(24);

function call(id: string, period: string, start: string, lines: [string, string][]) {
  return {
    call_id: id,
    call_title: `${period} 2026 Northwind Semiconductor (NWSC) Earnings Conference Call`,
    symbol: "NWSC",
    name: "Northwind Semiconductor",
    exchange: "NASDAQ",
    period,
    year: 2026,
    start_time: start,
    end_time: null,
    duration: 60,
    status: id === CURRENT ? "IN_PROGRESS" : "COMPLETED",
    created_at: start,
    updated_at: start,
    transcripts: [
      {
        transcript_id: `t-${id}`,
        type: "LIVE",
        language: "en-US",
        confidence_score: 0.95,
        text: "",
        segments: lines.map(([speaker, text], i) => ({
          segment_id: i,
          speaker,
          start_time: "00:00:00",
          end_time: "00:00:01",
          start_ms: i * 4000,
          end_ms: i * 4000 + 3000,
          confidence: 0.95,
          text,
          sentiment: null,
        })),
      },
    ],
  };
}

const current = call(CURRENT, "Q3", "2026-10-20T20:30:00Z", [
  ["OPERATOR", "Welcome to the call."],
  ["SPEAKER_1", "Revenue for the third quarter was $4.2 billion, up 12% year over year."],
  ["SPEAKER_1", "For the fourth quarter, we expect revenue in the range of $4.3 billion to $4.5 billion."],
]);
const previous = call(PREVIOUS, "Q2", "2026-07-21T20:30:00Z", [
  ["OPERATOR", "Welcome to the call."],
  ["SPEAKER_1", "Revenue was $3.9 billion, up 10% year over year."],
]);

const record = (date: string, period: string, revenueEst: string, revenue: string, surprise: string) => ({
  id: date,
  date,
  time: "16:05:00",
  ticker: "NWSC",
  exchange: "NASDAQ",
  isin: "",
  cusip: "",
  name: "Northwind Semiconductor",
  currency: "USD",
  period,
  period_year: 2026,
  eps_type: "Adj",
  revenue_type: "GAAP",
  eps: "",
  eps_est: "1.900",
  eps_prior: "",
  eps_surprise: "",
  eps_surprise_percent: "",
  revenue,
  revenue_est: revenueEst,
  revenue_prior: "",
  revenue_surprise: "",
  revenue_surprise_percent: surprise,
  notes: "",
  date_confirmed: 1,
  importance: 3,
  updated: 1790000000,
});

let fake: FakeUpstream;

beforeAll(async () => {
  fake = await startFakeUpstream();
  setUpstreamEnv({ UPSTREAM_BASE_URL: fake.url, UPSTREAM_API_KEY: "k" });
  fake.handler = (_req, res, url) => {
    if (url.pathname === `/api/v1/transcripts/calls/${CURRENT}`) return json(res, 200, current);
    if (url.pathname === `/api/v1/transcripts/calls/${PREVIOUS}`) return json(res, 200, previous);
    if (url.pathname === "/api/v1/transcripts/calls") {
      const { transcripts: _t, ...info } = previous;
      return json(res, 200, {
        data: [info],
        message: "Successfully fetched calls",
        pagination: { hits: 1, page: 1, page_count: 1, page_size: 8 },
      });
    }
    if (url.pathname === "/api/v2.1/calendar/earnings") {
      return json(res, 200, {
        earnings: [
          record("2026-10-20", "Q3", "4100000000.000", "4213000000.000", "2.756"),
          record("2027-01-20", "Q4", "4500000000.000", "", ""),
        ],
      });
    }
    json(res, 404, {
      ok: false,
      errors: [{ code: "no_data_found", id: "not_found", value: "No data found" }],
    });
  };
});
afterAll(async () => {
  await fake.close();
  clearUpstreamEnv();
});

const get = (callId: string) =>
  GET(new Request(`http://localhost/api/calls/${callId}/insights`), { params: Promise.resolve({ callId }) });

describe("GET /api/calls/[callId]/insights", () => {
  it("answers figures against consensus, changes against the previous call and the Q&A", async () => {
    const response = await get(CURRENT);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = callInsightsResponseSchema.parse(await response.json());
    expect(body.meta.stale).toBe(false);
    expect(body.data.throughSequence).toBe(2);
    const revenue = body.data.figures.find(
      (f) => f.metric === "revenue" && f.kind === "level" && !f.isGuidance,
    );
    expect(revenue).toMatchObject({ value: 4.2e9, consensus: 4.1e9, surprisePercent: 2.756, sequence: 1 });
    const guidance = body.data.figures.find((f) => f.isGuidance);
    expect(guidance).toMatchObject({ value: 4.4e9, consensus: 4.5e9, period: "next_quarter" });
    expect(body.data.context.previousCall?.callId).toBe(PREVIOUS);
    expect(body.data.changes.map((c) => [c.kind, c.before, c.after])).toContainEqual([
      "figure_up",
      3.9e9,
      4.2e9,
    ]);
    expect(body.data.qa).toEqual({ qaStartSequence: null, turns: [], speakers: expect.any(Array) });
  });

  it("answers 400 for a malformed call id", async () => {
    const response = await get("not a call id!");
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: "invalid_parameter" } });
  });

  it("answers 404 for an unknown call", async () => {
    const response = await get("f".repeat(24));
    expect(response.status).toBe(404);
  });
});
