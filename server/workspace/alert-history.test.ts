import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "@/server/config";
import type { Database } from "../db/database";
import { MemoryBus } from "../live/memory-bus";
import { clearUpstreamEnv, setUpstreamEnv } from "@/test/support/upstream-env";
import { json, startFakeUpstream, type FakeUpstream } from "@/test/support/fake-upstream";
import { createWorkspace, type Workspace } from "./create-workspace";
import { testDatabase } from "./test-db";

/**
 * Nothing lost, nothing hidden (issue 27, item 8), through the workspace as the server builds it: the results poll
 * reads every page of what changed, and deleting a rule or a watchlist keeps the alerts they fired.
 */

const CALL = "c".repeat(24);
let fake: FakeUpstream;
let database: Database;
let workspace: Workspace;
let bus: MemoryBus;

/** 1,000 records on the first page of the changes, one more on the second: the one a rule watches. */
const changed = Array.from({ length: 1_001 }, (_, i) => ({
  id: `r-${i}`,
  date: "2026-11-20",
  date_confirmed: 1,
  time: "16:05:00",
  ticker: i === 1_000 ? "LAST" : `T${i}`,
  name: i === 1_000 ? "Last Page Inc" : `T${i}`,
  importance: 2,
  eps: "1.10",
  eps_est: "1.00",
  period: "Q3",
  period_year: 2026,
  updated: 1_795_000_000,
}));

beforeAll(async () => {
  fake = await startFakeUpstream();
  fake.handler = (_req, res, url) => {
    if (url.searchParams.has("parameters[updated]")) {
      const page = Number(url.searchParams.get("page") ?? 0);
      const size = Number(url.searchParams.get("pagesize") ?? 1000);
      return json(res, 200, { earnings: changed.slice(page * size, page * size + size) });
    }
    json(res, 200, { earnings: [] });
  };
  const runtime = setUpstreamEnv({ UPSTREAM_BASE_URL: fake.url, UPSTREAM_API_KEY: "k" });
  database = await testDatabase();
  bus = new MemoryBus();
  workspace = createWorkspace({
    database: { driver: "pglite", get: async () => database, close: async () => {} },
    live: bus,
    isLeader: () => true,
    upstream: runtime.upstream,
    log: { info() {}, warn() {}, error() {}, debug() {} } as never,
    config: readConfig({}).workspace,
  });
}, 60_000);

afterAll(async () => {
  clearUpstreamEnv();
  await workspace?.stop();
  await database?.close();
  await fake?.close();
});

describe("the results poll", () => {
  it("reads every page of the changed records", async () => {
    const { alerts } = await workspace.repositories();
    await alerts.createRule("res", { kind: "results", tickers: ["LAST"] });
    await alerts.setState("results-cursor", 1_794_000_000);
    await workspace.service.reload();
    await workspace.service.pollResults();
    await workspace.service.idle();
    const inbox = await alerts.listAlerts("res", { limit: 10 });
    expect(inbox.data.map((a) => a.symbol)).toEqual(["LAST"]);
  });
});

describe("deleting what fired keeps the alert history", () => {
  const fire = async (user: string, sequence: number) => {
    bus.publish({
      event: "sentence",
      symbol: "NWSC",
      data: {
        callId: CALL,
        sequence,
        text: "Tariffs cost us two points of margin.",
        speaker: "SPEAKER_1",
        startMs: sequence * 1000,
        endMs: sequence * 1000 + 900,
        confidence: 0.9,
      } as never,
    });
    await workspace.service.idle();
    return (await (await workspace.repositories()).alerts.listAlerts(user, { limit: 10 })).data;
  };

  it("a deleted rule's alerts stay in the inbox, with their text", async () => {
    workspace.service.start();
    const { alerts } = await workspace.repositories();
    const rule = await alerts.createRule("hist", { kind: "keyword", phrase: "tariff" });
    await workspace.service.reload();
    expect(await fire("hist", 1)).toHaveLength(1);
    await alerts.deleteRule("hist", rule.id);
    await workspace.service.reload();
    expect((await alerts.listAlerts("hist", { limit: 10 })).data).toMatchObject([
      { text: "Tariffs cost us two points of margin.", sequence: 1 },
    ]);
  });

  it("a deleted watchlist's rules go, and their alerts stay", async () => {
    const { alerts, watchlists } = await workspace.repositories();
    const list = await watchlists.create("wl", { name: "Semis", tickers: ["NWSC"] });
    await alerts.createRule("wl", { kind: "keyword", phrase: "margin", watchlistId: list.id });
    await workspace.service.reload();
    expect(await fire("wl", 2)).toHaveLength(1);
    await watchlists.remove("wl", list.id);
    await workspace.service.reload();
    expect(await alerts.listRules("wl")).toEqual([]);
    expect((await alerts.listAlerts("wl", { limit: 10 })).data).toMatchObject([{ sequence: 2 }]);
  });
});
