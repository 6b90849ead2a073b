import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { healthSchema } from "@/lib/schemas/health";
import { clearUpstreamEnv, setUpstreamEnv } from "@/test/support/upstream-env";
import { json, startFakeUpstream, type FakeUpstream } from "@/test/support/fake-upstream";
import { GET } from "./route";
import { getRuntime } from "@/server/runtime";

let fake: FakeUpstream;

beforeAll(async () => {
  fake = await startFakeUpstream();
  clearUpstreamEnv();
});
afterAll(async () => {
  await fake.close();
  clearUpstreamEnv();
});
beforeEach(() => {
  getRuntime().upstream.cache.clear();
  fake.requests = [];
});

const health = async () => {
  const response = await GET(new Request("http://localhost/api/health"));
  expect(response.status).toBe(200);
  expect(response.headers.get("cache-control")).toBe("no-store");
  return healthSchema.parse(await response.json());
};

describe("GET /api/health", () => {
  it("is ok when the upstream answers, and probes it once for a burst of checks", async () => {
    setUpstreamEnv({ UPSTREAM_BASE_URL: fake.url, UPSTREAM_API_KEY: "k", UPSTREAM_MODE: "embedded" });
    fake.handler = (_req, res) => json(res, 200, { earnings: [] });
    const results = await Promise.all(Array.from({ length: 10 }, health));
    expect(results[0]).toEqual({
      status: "ok",
      upstream: { mode: "embedded", rest: "ok", stream: "unknown" },
      // Not started in this test: the archive reports itself idle and empty without opening the database.
      archive: expect.objectContaining({ state: "idle", isIndexer: false, calls: 0 }),
    });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.query.get("pagesize")).toBe("1");
  });

  it("is degraded when the upstream fails or is not configured", async () => {
    setUpstreamEnv({ UPSTREAM_BASE_URL: fake.url, UPSTREAM_API_KEY: "k" });
    fake.handler = (_req, res) => json(res, 401, { message: "Unauthorized" });
    expect(await health()).toMatchObject({
      status: "degraded",
      upstream: { mode: "remote", rest: "error", stream: "unknown" },
    });
    setUpstreamEnv({});
    expect((await health()).upstream.rest).toBe("error");
  });
});
