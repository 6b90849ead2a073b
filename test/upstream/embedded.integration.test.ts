import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { earningsRowSchema, maRowSchema } from "@/lib/schemas/calendar";
import { pagedEnvelopeSchema } from "@/lib/schemas/envelope";
import { GET as getEarnings } from "@/app/api/calendar/earnings/route";
import { GET as getMa } from "@/app/api/calendar/ma/route";
import { GET as getHealth } from "@/app/api/health/route";
import { GET as getSymbols } from "@/app/api/symbols/route";
import { startTestEmbedded, type TestEmbedded } from "@/embedded/test/harness";
import { clearUpstreamEnv, setUpstreamEnv } from "@/test/support/upstream-env";
import { getRuntime } from "@/server/runtime";

/**
 * Our routes against the real embedded service over real sockets, in both wire dialects
 * (docs/upstream.md §8).
 */
describe.each(["contract", "documented"] as const)("embedded service (%s wire)", (wire) => {
  let embedded: TestEmbedded;

  beforeAll(async () => {
    embedded = await startTestEmbedded({ EMBEDDED_WIRE: wire });
  });
  afterAll(async () => {
    await embedded?.close();
    clearUpstreamEnv();
  });
  beforeEach(() => {
    setUpstreamEnv({
      UPSTREAM_BASE_URL: embedded.url,
      UPSTREAM_API_KEY: embedded.key,
      UPSTREAM_MODE: "embedded",
    });
    getRuntime().upstream.cache.clear();
  });

  const EARNINGS_PATH = "/api/v2.1/calendar/earnings";
  const countEarnings = async () => (await embedded.stats()).restRequests.byPath[EARNINGS_PATH] ?? 0;

  describe("routes against the embedded service", () => {
    it("50 identical concurrent earnings requests cost one upstream call", async () => {
      const before = await countEarnings();
      const url = "http://localhost/api/calendar/earnings?pageSize=25&importance=2&sort=date:asc";
      const responses = await Promise.all(Array.from({ length: 50 }, () => getEarnings(new Request(url))));
      expect(responses.every((r) => r.status === 200)).toBe(true);
      const bodies = await Promise.all(responses.map((r) => r.json()));
      const first = pagedEnvelopeSchema(earningsRowSchema).parse(bodies[0]);
      expect(first.data.length).toBeGreaterThan(0);
      expect(first.data.every((row) => row.importance >= 2)).toBe(true);
      expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
      expect((await countEarnings()) - before).toBe(1);
    });

    it("serves earnings rows in the app shape, filtered by tickers and dates", async () => {
      const all = pagedEnvelopeSchema(earningsRowSchema).parse(
        await (await getEarnings(new Request("http://localhost/api/calendar/earnings?pageSize=5"))).json(),
      );
      const ticker = all.data[0]!.ticker;
      const date = all.data[0]!.date;
      const filtered = pagedEnvelopeSchema(earningsRowSchema).parse(
        await (
          await getEarnings(
            new Request(`http://localhost/api/calendar/earnings?tickers=${ticker}&to=${date}`),
          )
        ).json(),
      );
      expect(filtered.data.length).toBeGreaterThan(0);
      expect(filtered.data.every((r) => r.ticker === ticker && r.date <= date)).toBe(true);
      // Newest first by default; past reports carry actuals.
      expect(filtered.data.some((r) => r.eps !== null)).toBe(true);
    });

    it("reads a date without rows as an empty page", async () => {
      const response = await getEarnings(
        new Request("http://localhost/api/calendar/earnings?date=1990-01-01"),
      );
      expect(response.status).toBe(200);
      expect(((await response.json()) as { data: unknown[] }).data).toEqual([]);
    });

    it("serves M&A rows with the completed sort", async () => {
      const response = await getMa(
        new Request("http://localhost/api/calendar/ma?sort=completed&pageSize=20"),
      );
      const body = pagedEnvelopeSchema(maRowSchema).parse(await response.json());
      expect(body.data.length).toBeGreaterThan(0);
      expect(body.data.every((r) => r.completedDate !== null)).toBe(true);
      const dates = body.data.map((r) => r.completedDate!);
      expect([...dates].sort().reverse()).toEqual(dates);
    });

    it("finds companies of the embedded universe by ticker and by name", async () => {
      const list = pagedEnvelopeSchema(earningsRowSchema).parse(
        await (await getEarnings(new Request("http://localhost/api/calendar/earnings?pageSize=1"))).json(),
      );
      const { ticker, name } = list.data[0]!;
      const byTicker = (await (
        await getSymbols(new Request(`http://localhost/api/symbols?q=${ticker}`))
      ).json()) as {
        data: { ticker: string }[];
      };
      expect(byTicker.data[0]?.ticker).toBe(ticker);
      const word = name.split(" ")[0]!;
      const byName = (await (
        await getSymbols(new Request(`http://localhost/api/symbols?q=${encodeURIComponent(word)}`))
      ).json()) as { data: { ticker: string }[] };
      expect(byName.data.map((s) => s.ticker)).toContain(ticker);
      expect(byName.data.length).toBeLessThanOrEqual(20);
    });

    it("reports health ok in embedded mode", async () => {
      const body = await (await getHealth(new Request("http://localhost/api/health"))).json();
      expect(body).toMatchObject({
        status: "ok",
        upstream: { mode: "embedded", rest: "ok", stream: "unknown" },
      });
      // The archive reports its own progress beside the upstream (its state depends on the test's database).
      expect(body).toHaveProperty("archive.driver");
    });

    it("serves a stale copy marked stale when the embedded service fails past the fresh window", async () => {
      const url = "http://localhost/api/calendar/earnings?pageSize=3&importance=4";
      const fresh = (await (await getEarnings(new Request(url))).json()) as { meta: { fetchedAt: string } };
      // Make the cached copy older than the SWR window without waiting minutes.
      const cache = getRuntime().upstream.cache as unknown as {
        lru: { forEach(fn: (v: { fetchedAtMs: number }) => void): void };
      };
      cache.lru.forEach((entry) => {
        entry.fetchedAtMs -= 10 * 60_000;
      });
      await embedded.setFaults({ restErrorRate: 1, restStatus: 500, durationSeconds: 30 });
      try {
        const response = await getEarnings(new Request(url));
        expect(response.status).toBe(200);
        expect(response.headers.get("cache-control")).toBe("no-store");
        const body = (await response.json()) as { meta: { stale: boolean; fetchedAt: string } };
        expect(body.meta.stale).toBe(true);
        expect(Date.parse(body.meta.fetchedAt)).toBeLessThan(Date.parse(fresh.meta.fetchedAt));
      } finally {
        await embedded.clearFaults();
      }
    });

    it("maps a rejected key to 502 upstream_auth without echoing the key", async () => {
      setUpstreamEnv({ UPSTREAM_BASE_URL: embedded.url, UPSTREAM_API_KEY: "wrong-key-123" });
      const response = await getEarnings(new Request("http://localhost/api/calendar/earnings"));
      expect(response.status).toBe(502);
      const text = await response.text();
      expect(JSON.parse(text)).toMatchObject({ error: { code: "upstream_auth" } });
      expect(text).not.toContain("wrong-key-123");
    });
  });
});
