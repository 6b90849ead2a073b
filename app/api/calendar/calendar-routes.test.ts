import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { pagedEnvelopeSchema } from "@/lib/schemas/envelope";
import { earningsRowSchema, maRowSchema } from "@/lib/schemas/calendar";
import { clearUpstreamEnv, setUpstreamEnv } from "@/test/support/upstream-env";
import { json, noDataBody, startFakeUpstream, type FakeUpstream } from "@/test/support/fake-upstream";
import earnings from "@/test/fixtures/upstream/earnings.json";
import ma from "@/test/fixtures/upstream/ma.json";
import { GET as getEarnings } from "./earnings/route";
import { GET as getMa } from "./ma/route";
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
  setUpstreamEnv({ UPSTREAM_BASE_URL: fake.url, UPSTREAM_API_KEY: "test-key", UPSTREAM_TIMEOUT_MS: "2000" });
  getRuntime().upstream.cache.clear();
  fake.requests = [];
  fake.handler = (_req, res, url) => json(res, 200, url.pathname.endsWith("/ma") ? ma : earnings);
});

const call = (handler: (r: Request) => Promise<Response>, query: string) =>
  handler(new Request(`http://localhost/api/calendar/x${query}`));

describe("GET /api/calendar/earnings", () => {
  it("answers the paged envelope with app-shaped rows and a private Cache-Control", async () => {
    const response = await call(
      getEarnings,
      "?pageSize=2&tickers=nwsc,brkx&from=2026-01-01&to=2026-12-31&sort=date:asc",
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toMatch(/^private, max-age=(29|30)$/);
    const body = pagedEnvelopeSchema(earningsRowSchema).parse(await response.json());
    expect(body.meta).toMatchObject({ page: 0, pageSize: 2, hasMore: true, stale: false });
    expect(body.data.map((r) => r.ticker)).toEqual(["NWSC", "BRKX"]);
    const sent = fake.requests[0]?.query;
    expect(sent?.get("pagesize")).toBe("2");
    expect(sent?.get("parameters[tickers]")).toBe("NWSC,BRKX");
    expect(sent?.get("parameters[date_from]")).toBe("2026-01-01");
    expect(sent?.get("parameters[date_sort]")).toBe("date:asc");
  });

  it("reads the upstream's 404 no_data_found as an empty page", async () => {
    fake.handler = (_req, res) => json(res, 404, noDataBody);
    const response = await call(getEarnings, "?date=2030-01-01");
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: unknown[]; meta: { hasMore: boolean } };
    expect(body.data).toEqual([]);
    expect(body.meta.hasMore).toBe(false);
  });

  it.each([
    ["?pageSize=0", "pageSize must be between 1 and 1000"],
    ["?pageSize=1001", "pageSize must be between 1 and 1000"],
    ["?page=100001", "page must be between 0 and 100000"],
    ["?importance=6", "importance must be between 0 and 5"],
    ["?from=2026-13-01", "from must be a date in the form YYYY-MM-DD"],
    ["?from=2026-02-01&to=2026-01-01", "from must be on or before to"],
    ["?date=2026-01-01&from=2026-01-01", "date cannot be combined with from or to"],
    ["?sort=ticker", "sort must be one of date:asc, date:desc"],
    ["?updatedSince=yesterday", "updatedSince must be Unix seconds or an ISO 8601 date-time"],
    [
      `?tickers=${Array.from({ length: 51 }, (_, i) => `T${i}`).join(",")}`,
      "tickers must list at most 50 symbols",
    ],
    [
      "?tickers=A;DROP",
      'tickers must be comma-separated ticker symbols (a letter, then up to 9 letters, digits, "." or "-")',
    ],
  ])("refuses %s with 400 naming our parameter", async (query, message) => {
    const response = await call(getEarnings, query);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: "invalid_parameter", message } });
    expect(fake.requests).toHaveLength(0);
  });

  it("treats empty parameters as absent", async () => {
    const response = await call(getEarnings, "?from=&to=&tickers=");
    expect(response.status).toBe(200);
  });

  it("maps upstream trouble to our 5xx without upstream details", async () => {
    fake.handler = (_req, res) => json(res, 401, { message: "Unauthorized: key test-key" });
    const response = await call(getEarnings, "");
    expect(response.status).toBe(502);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ error: { code: "upstream_auth" } });
    expect(text).not.toContain("test-key");
  });

  it("answers 503 upstream_not_configured without UPSTREAM_BASE_URL", async () => {
    setUpstreamEnv({});
    const response = await call(getEarnings, "");
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      "upstream_not_configured",
    );
  });
});

describe("GET /api/calendar/ma", () => {
  it("answers M&A rows and passes the M&A sort", async () => {
    const response = await call(getMa, "?sort=completed&importance=3");
    expect(response.status).toBe(200);
    const body = pagedEnvelopeSchema(maRowSchema).parse(await response.json());
    expect(body.data[0]?.target.ticker).toBeNull();
    expect(fake.requests[0]?.path).toBe("/api/v2.1/calendar/ma");
    expect(fake.requests[0]?.query.get("parameters[date_sort]")).toBe("completed");
    expect(fake.requests[0]?.query.get("parameters[importance]")).toBe("3");
  });

  it("refuses an earnings sort on M&A", async () => {
    const response = await call(getMa, "?sort=date:asc");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { code: "invalid_parameter", message: "sort must be one of announced, expected, completed" },
    });
  });
});
