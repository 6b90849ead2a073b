import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readConfig } from "@/server/config";
import { GET as calendarGet } from "@/app/api/watchlists/[id]/calendar/route";
import { GET as feedGet } from "@/app/api/feeds/[token]/route";
import type { Database } from "@/server/db/database";
import { MemoryBus } from "@/server/live/memory-bus";
import { clearUpstreamEnv, setUpstreamEnv } from "@/test/support/upstream-env";
import { json, startFakeUpstream, type FakeUpstream } from "@/test/support/fake-upstream";
import { createWorkspace, type Workspace } from "@/server/workspace/create-workspace";
import { testDatabase } from "@/server/workspace/test-db";

/**
 * Feeds and watchlist calendars cannot amplify (issue 27, item 6). One feed GET (no session needed) for 5,000
 * followed tickers started 100 upstream requests at once. Now: at most 8 in flight for one request whatever the
 * number of tickers, tickers capped and checked against the symbol directory, the merged result kept per user so a
 * second identical request within 30 s makes at most 2 upstream requests (after a failure too), and `updatedSince`
 * no way around it.
 */

const KNOWN = Array.from({ length: 1_200 }, (_, i) => `K${String(i).padStart(4, "0")}`);
const FOLLOWED = [...KNOWN, ...Array.from({ length: 3_800 }, (_, i) => `U${String(i).padStart(4, "0")}`)];

let fake: FakeUpstream;
let database: Database;
let workspace: Workspace;
let inFlight = 0;
let peak = 0;
let failing = false;
let feedUrl: string;
let watchlistId: string;
let smallId: string;

/** Upstream requests other than the symbol directory's (which is shared, cached an hour). */
const calendarRequests = () => fake.requests.filter((r) => r.query.has("parameters[tickers]")).length;

beforeAll(async () => {
  fake = await startFakeUpstream();
  fake.handler = (_req, res, url) => {
    const tickers = url.searchParams.get("parameters[tickers]");
    if (!tickers) {
      // The symbol directory: every known ticker, newest first, pages of 1,000.
      const page = Number(url.searchParams.get("page") ?? 0);
      const rows = KNOWN.slice(page * 1000, page * 1000 + 1000).map((ticker) => ({
        id: `d-${ticker}`,
        date: "2026-11-20",
        ticker,
        name: ticker,
        exchange: "NASDAQ",
        importance: 1,
        updated: 0,
      }));
      return json(res, 200, { earnings: rows });
    }
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    setTimeout(() => {
      inFlight -= 1;
      if (failing) return json(res, 500, { ok: false });
      const rows = tickers.split(",").map((ticker) => ({
        id: `e-${ticker}`,
        date: "2026-12-01",
        date_confirmed: 1,
        time: "16:05:00",
        ticker,
        name: ticker,
        importance: 2,
        updated: 1_795_000_000 + KNOWN.indexOf(ticker),
      }));
      json(res, 200, { earnings: rows });
    }, 30);
  };
  database = await testDatabase();
  workspace = createWorkspace({
    database: { driver: "pglite", get: async () => database, close: async () => {} },
    live: new MemoryBus(),
    isLeader: () => true,
    upstream: null,
    log: { info() {}, warn() {}, error() {}, debug() {} } as never,
    config: readConfig({}).workspace,
  });
  setUpstreamEnv(
    { UPSTREAM_BASE_URL: fake.url, UPSTREAM_API_KEY: "k", UPSTREAM_TIMEOUT_MS: "5000" },
    { workspace },
  );
  // 5,000 followed tickers: rows written directly, as a database from before the per-user limit may hold them.
  const { watchlists, feeds } = await workspace.repositories();
  const lists: { id: string }[] = [];
  for (let list = 0; list < 10; list++)
    lists.push(await watchlists.create("flood", { name: `L${list}`, tickers: [] }));
  watchlistId = lists[0]!.id;
  for (const [list, created] of lists.entries())
    await database.db.execute(
      `INSERT INTO watchlist_items (watchlist_id, symbol, position)
       SELECT ${Number(created.id)}, s, o FROM unnest(ARRAY[${FOLLOWED.slice(list * 500, list * 500 + 500)
         .map((t) => `'${t}'`)
         .join(",")}]) WITH ORDINALITY AS u(s, o)` as never,
    );
  smallId = (await watchlists.create("small", { name: "Few", tickers: KNOWN.slice(0, 60) })).id;
  feedUrl = `http://localhost:3000/api/feeds/${await feeds.issue("flood")}.ics`;
}, 120_000);

afterAll(async () => {
  clearUpstreamEnv();
  await workspace?.stop();
  await database?.close();
  await fake?.close();
});

beforeEach(() => {
  peak = 0;
  failing = false;
});

const feed = () => {
  const token = new URL(feedUrl).pathname.split("/").pop()!;
  return feedGet(new Request(feedUrl), { params: Promise.resolve({ token }) });
};
const calendar = (query = "", user = "flood", id = watchlistId) =>
  calendarGet(
    new Request(`http://localhost:3000/api/watchlists/${id}/calendar?kind=earnings${query}`, {
      headers: { host: "localhost:3000", "x-callroom-user": user },
    }),
    { params: Promise.resolve({ id }) },
  );

describe("the calendar feed of 5,000 followed tickers", () => {
  it("asks the upstream for known tickers only, at most 8 at a time, and again for nobody within 30 s", async () => {
    const before = calendarRequests();
    const response = await feed();
    expect(response.status).toBe(200);
    const first = calendarRequests() - before;
    // 1,000 tickers (the limit) of the 1,200 the directory knows, in chunks of 50: 20 requests, not 100.
    expect(first).toBeLessThanOrEqual(20);
    expect(peak).toBeLessThanOrEqual(8);
    expect(await response.text()).toContain("K0999");
    const again = calendarRequests();
    expect((await feed()).status).toBe(200);
    expect(calendarRequests() - again).toBeLessThanOrEqual(2);
  });
});

describe("a watchlist's calendar", () => {
  it("keeps a failure briefly: a second request within 30 s makes at most 2 upstream requests", async () => {
    // Two chunks: few enough failures that the upstream circuit breaker stays closed and decides nothing here.
    failing = true;
    const before = calendarRequests();
    expect((await calendar("", "small", smallId)).status).toBeGreaterThanOrEqual(500);
    const afterFirst = calendarRequests();
    expect(afterFirst).toBeGreaterThan(before);
    expect((await calendar("", "small", smallId)).status).toBeGreaterThanOrEqual(500);
    // The interface allows 2; the kept failure makes it none (the old code asked again: 2 here, more with more chunks).
    expect(calendarRequests() - afterFirst).toBe(0);
  });

  it("answers updatedSince from the kept result: a new value each minute is no way around it", async () => {
    expect((await calendar()).status).toBe(200);
    const before = calendarRequests();
    for (const since of [1_795_000_100, 1_795_000_160, 1_795_000_220]) {
      const response = await calendar(`&updatedSince=${since}`);
      expect(response.status).toBe(200);
      const body = (await response.json()) as { data: { ticker: string; updatedAt: string }[] };
      expect(body.data.length).toBeGreaterThan(0);
      expect(body.data.every((r) => Date.parse(r.updatedAt) >= since * 1000)).toBe(true);
    }
    expect(calendarRequests() - before).toBeLessThanOrEqual(2);
  });
});
