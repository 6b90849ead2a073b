// EMBEDDED_NOW (docs/upstream.md §7): the service's clock starts at the instant given and runs at real speed; what the
// demo shows follows it, signed media links do not (the app checks their expiry against its own clock).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serviceClock } from "../clock";
import { QUIET_NOW, startTestEmbedded, type TestEmbedded } from "./harness";

describe("serviceClock", () => {
  it("starts at the instant given and advances with the real clock", () => {
    let real = 1_000_000;
    const clock = serviceClock(Date.UTC(2028, 1, 29, 15), () => real);
    expect(clock()).toBe(Date.UTC(2028, 1, 29, 15));
    real += 90_000;
    expect(clock()).toBe(Date.UTC(2028, 1, 29, 15, 1, 30));
  });

  it("is the real clock without an instant", () => {
    const clock = serviceClock(undefined, () => 42);
    expect(clock()).toBe(42);
  });
});

describe("a service started with EMBEDDED_NOW", () => {
  const NOW = Date.UTC(2028, 1, 29, 15);
  let embedded: TestEmbedded;
  const get = async (path: string) => {
    const response = await fetch(`${embedded.url}${path}`, {
      headers: { authorization: `token ${embedded.key}` },
    });
    expect(response.status, path).toBe(200);
    return (await response.json()) as Record<string, unknown>;
  };

  beforeAll(async () => {
    embedded = await startTestEmbedded({
      EMBEDDED_NOW: new Date(NOW).toISOString(),
      EMBEDDED_LIVE_CALLS: "0",
    });
  }, 30_000);
  afterAll(() => embedded.close());

  it("reads that instant, then runs at real speed", async () => {
    const first = embedded.now();
    expect(first).toBeGreaterThanOrEqual(NOW);
    expect(first).toBeLessThan(NOW + 30_000);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(embedded.now() - first).toBeGreaterThanOrEqual(200);
  });

  it("shows the calendar of that date: 400 days back to 90 ahead, actuals up to now only", async () => {
    const body = await get("/api/v2.1/calendar/earnings?pagesize=1000&parameters[date_sort]=date:asc");
    const records = body.earnings as { date: string; eps: string; revenue: string }[];
    expect(records.length).toBeGreaterThan(500);
    expect(records[0]!.date >= "2027-01-25").toBe(true);
    expect(records.at(-1)!.date <= "2028-05-29").toBe(true);
    expect(records.at(-1)!.date > "2028-05-01").toBe(true);
    for (const r of records) {
      if (r.date < "2028-02-29") expect(r.eps, r.date).not.toBe("");
      if (r.date > "2028-02-29") expect(r.eps, r.date).toBe("");
    }
  });

  it("lists the calls of that date's past year, and signs media links on the real clock", async () => {
    const list = await get("/api/v1/transcripts/calls?info_only=true&page_size=1");
    const newest = (list.data as { call_id: string; start_time: string }[])[0]!;
    expect(Date.parse(newest.start_time)).toBeLessThan(NOW);
    expect(Date.parse(newest.start_time)).toBeGreaterThan(NOW - 14 * 86_400_000);
    const call = await get(`/api/v1/transcripts/calls/${newest.call_id}?audio=true&info_only=true`);
    const link = new URL(JSON.stringify(call).match(/http:[^"]+\/hls\?[^"]+/)![0]);
    const policy = JSON.parse(Buffer.from(link.searchParams.get("Policy")!, "base64url").toString()) as {
      expires: number;
    };
    const ttlSeconds = 900;
    expect(policy.expires * 1000).toBeGreaterThan(Date.now());
    expect(policy.expires * 1000).toBeLessThanOrEqual(Date.now() + ttlSeconds * 1000 + 1000);
    const playlist = await fetch(link);
    expect(playlist.status).toBe(200);
  }, 60_000);
});

describe("QUIET_NOW", () => {
  it("is a Sunday of a weekend without reports, so no release call goes live while a test runs", async () => {
    const quiet = Date.parse(QUIET_NOW);
    expect(new Date(quiet).getUTCDay()).toBe(0);
    const embedded = await startTestEmbedded({ EMBEDDED_NOW: QUIET_NOW, EMBEDDED_LIVE_CALLS: "0" });
    try {
      // Friday's calls are over by Friday night; Monday's first ones start at 08:30 in New York, 20 hours later.
      const response = await fetch(
        `${embedded.url}/api/v2.1/calendar/earnings?pagesize=1000&parameters[date_from]=2026-11-27&parameters[date_to]=2026-11-30`,
        { headers: { authorization: `token ${embedded.key}` } },
      );
      expect(response.status).toBe(200);
      const dates = ((await response.json()) as { earnings: { date: string }[] }).earnings.map((r) => r.date);
      expect(dates).toContain("2026-11-30");
      expect(dates.filter((d) => d === "2026-11-28" || d === "2026-11-29")).toEqual([]);
    } finally {
      await embedded.close();
    }
  }, 30_000);
});
