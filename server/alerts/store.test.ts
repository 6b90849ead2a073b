import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/database";
import { WatchlistRepository } from "../workspace/watchlists";
import { testDatabase } from "../workspace/test-db";
import { ensureVapidKeys } from "./push";
import type { AlertCandidate } from "./rules";
import { AlertStore } from "./store";
import { patchedRule } from "./rule-patch";

let database: Database;
let store: AlertStore;
let lists: WatchlistRepository;

beforeAll(async () => {
  database = await testDatabase();
  store = new AlertStore(database.db);
  lists = new WatchlistRepository(database.db);
}, 60_000);
afterAll(() => database?.close());

const candidate = (
  over: Partial<Omit<AlertCandidate, "rules">> & { ruleId?: string; rules?: AlertCandidate["rules"] },
): AlertCandidate => {
  const { ruleId = "0", rules, ...rest } = over;
  return {
    ...base,
    rules: rules ?? [{ ruleId, kind: "keyword", label: "“tariff”", matched: ["Tariffs"], detail: null }],
    ...rest,
  };
};

const base = {
  userId: "alice",
  subject: "a".repeat(24),
  callId: "a".repeat(24),
  symbol: "NWSC",
  sequence: 3,
  startMs: 12_000,
  text: "Tariffs hurt.",
};

describe("AlertStore", () => {
  it("records a firing exactly once per (user, call, sentence)", async () => {
    const rule = await store.createRule("alice", { kind: "keyword", phrase: "tariff" });
    const first = await store.recordFiring(candidate({ ruleId: rule.id }));
    expect(first).toMatchObject({ ruleId: rule.id, sequence: 3, startMs: 12_000, read: false });
    expect(await store.recordFiring(candidate({ ruleId: rule.id }))).toBeNull();
    // Concurrent evaluations of the same event (two instances during a hand-over): one wins.
    const racing = await Promise.all(
      Array.from({ length: 5 }, () => store.recordFiring(candidate({ ruleId: rule.id, sequence: 4 }))),
    );
    expect(racing.filter((r) => r !== null)).toHaveLength(1);
    // A call-level alert (no sentence) is unique per call too.
    expect(await store.recordFiring(candidate({ ruleId: rule.id, sequence: null }))).not.toBeNull();
    expect(await store.recordFiring(candidate({ ruleId: rule.id, sequence: null }))).toBeNull();
  });

  it("records one event's firings for many users together, each once, and returns only what it recorded", async () => {
    const rules = await Promise.all(
      ["u1", "u2", "u3"].map((u) => store.createRule(u, { kind: "keyword", phrase: "backlog" })),
    );
    const batch = rules.map((rule, i) => candidate({ userId: `u${i + 1}`, ruleId: rule.id, sequence: 40 }));
    const first = await store.recordFirings(batch);
    expect(first.map((r) => [r.candidate.userId, r.alert.ruleId, r.alert.sequence])).toEqual([
      ["u1", rules[0]!.id, 40],
      ["u2", rules[1]!.id, 40],
      ["u3", rules[2]!.id, 40],
    ]);
    // The same event again (a new leader replaying) plus one new sentence: only the new one is recorded.
    const again = await store.recordFirings([
      ...batch,
      candidate({ userId: "u2", ruleId: rules[1]!.id, sequence: 41 }),
    ]);
    expect(again.map((r) => [r.candidate.userId, r.alert.sequence])).toEqual([["u2", 41]]);
    expect((await store.listAlerts("u3", { limit: 10 })).data).toHaveLength(1);
  });

  it("records one alert per sentence naming every rule that matched, and keeps it when a rule is deleted", async () => {
    const tariff = await store.createRule("v1", { kind: "keyword", phrase: "tariff" });
    const guidance = await store.createRule("v1", { kind: "guidance", name: "Outlook" });
    const rules = [
      { ruleId: tariff.id, kind: "keyword" as const, label: "“tariff”", matched: ["tariffs"], detail: null },
      {
        ruleId: guidance.id,
        kind: "guidance" as const,
        label: "Outlook",
        matched: ["we now expect"],
        detail: "guides revenue $4.10B, 1.6% below consensus $4.17B",
      },
    ];
    const [first] = await store.recordFirings([candidate({ userId: "v1", sequence: 7, rules })]);
    expect(first!.alert).toMatchObject({ ruleId: tariff.id, kind: "keyword", rules });
    // The same sentence again with only one of the rules (a replay after a rule was paused): still one alert.
    expect(await store.recordFirings([candidate({ userId: "v1", sequence: 7, rules: [rules[1]!] })])).toEqual(
      [],
    );
    await store.deleteRule("v1", tariff.id);
    const inbox = await store.listAlerts("v1", { limit: 10 });
    expect(inbox.data).toHaveLength(1);
    expect(inbox.data[0]!.rules.map((r) => r.label)).toEqual(["“tariff”", "Outlook"]);
  });

  it("filters the inbox by ticker, rule, call and unread, and counts what the filters offer", async () => {
    const a = await store.createRule("flo", { kind: "keyword", phrase: "margin" });
    const b = await store.createRule("flo", { kind: "keyword", phrase: "backlog" });
    const match = (id: string) => ({
      ruleId: id,
      kind: "keyword" as const,
      label: id,
      matched: [],
      detail: null,
    });
    const callX = "x".repeat(24);
    const callY = "y".repeat(24);
    await store.recordFirings([
      candidate({
        userId: "flo",
        subject: callX,
        callId: callX,
        symbol: "AAA",
        sequence: 1,
        rules: [match(a.id)],
      }),
      candidate({
        userId: "flo",
        subject: callX,
        callId: callX,
        symbol: "AAA",
        sequence: 2,
        rules: [match(a.id), match(b.id)],
      }),
    ]);
    const [onY] = await store.recordFirings([
      candidate({
        userId: "flo",
        subject: callY,
        callId: callY,
        symbol: "BBB",
        sequence: 1,
        rules: [match(b.id)],
      }),
    ]);
    await store.markRead("flo", onY!.alert.id);
    const seqs = async (filter: Parameters<AlertStore["listAlerts"]>[1]) =>
      (await store.listAlerts("flo", filter)).data.map((x) => `${x.symbol}${x.sequence}`);
    expect(await seqs({ limit: 10, ticker: "AAA" })).toEqual(["AAA2", "AAA1"]);
    expect(await seqs({ limit: 10, ruleId: b.id })).toEqual(["BBB1", "AAA2"]);
    expect(await seqs({ limit: 10, callId: callY })).toEqual(["BBB1"]);
    expect(await seqs({ limit: 10, unread: true })).toEqual(["AAA2", "AAA1"]);
    const page = await store.listAlerts("flo", { limit: 1, ticker: "BBB" });
    expect(page.unread).toBe(2);
    expect(page.facets).toEqual({
      symbols: [
        { symbol: "AAA", total: 2, unread: 2 },
        { symbol: "BBB", total: 1, unread: 0 },
      ],
      rules: [
        { ruleId: b.id, total: 2, unread: 1 },
        { ruleId: a.id, total: 2, unread: 2 },
      ],
    });
  });

  it("mutes a call or a company, marks what it silences read, and lifts both when the call ends", async () => {
    const callX = "m".repeat(24);
    const rule = await store.createRule("gus", { kind: "keyword", phrase: "x" });
    await store.recordFirings([
      candidate({
        userId: "gus",
        subject: callX,
        callId: callX,
        symbol: "AAA",
        sequence: 1,
        ruleId: rule.id,
      }),
      candidate({
        userId: "gus",
        subject: callX,
        callId: callX,
        symbol: "AAA",
        sequence: 2,
        ruleId: rule.id,
      }),
    ]);
    const { mute, marked } = await store.createMute("gus", { scope: "call", callId: callX, symbol: "AAA" });
    expect(marked).toBe(2);
    expect(await store.unreadCount("gus")).toBe(0);
    // Muting it again is the same mute.
    expect((await store.createMute("gus", { scope: "call", callId: callX })).mute.id).toBe(mute.id);
    await store.createMute("gus", { scope: "company", symbol: "BBB", callId: "n".repeat(24) });
    expect((await store.listMutes("gus")).map((m) => [m.scope, m.callId ?? m.symbol])).toEqual([
      ["company", "n".repeat(24)],
      ["call", callX],
    ]);
    expect((await store.activeMutes()).filter((m) => m.userId === "gus")).toHaveLength(2);
    expect(await store.listMutes("hal")).toEqual([]);
    await expect(store.deleteMute("hal", mute.id)).rejects.toMatchObject({ status: 404 });
    expect(await store.endMutesOf("n".repeat(24))).toBe(1);
    await store.deleteMute("gus", mute.id);
    expect(await store.listMutes("gus")).toEqual([]);
  });

  it("a mute takes effect for every sentence not yet recorded, whatever the engine's copy of the mutes says", async () => {
    // The engine reloads its mutes when the bus says they changed; a sentence evaluated before that reload reaches
    // the store with the call still audible to it. The store is the last word (on the old code this was recorded).
    const rule = await store.createRule("kim", { kind: "keyword", phrase: "tariff" });
    const callM = "m".repeat(24);
    const other = "o".repeat(24);
    const at = (sequence: number, over: Partial<AlertCandidate> = {}) =>
      candidate({
        userId: "kim",
        subject: callM,
        callId: callM,
        symbol: "MMM",
        sequence,
        ruleId: rule.id,
        ...over,
      });
    expect(await store.recordFirings([at(1)])).toHaveLength(1);
    await store.createMute("kim", { scope: "call", callId: callM, symbol: "MMM" });
    const after = await store.recordFirings([
      at(2),
      at(3, { userId: "lea" }),
      at(4, { subject: other, callId: other, symbol: "OOO" }),
    ]);
    // Kim's sentence of the muted call is not recorded; another user's, and Kim's other call, are.
    expect(after.map((r) => [r.candidate.userId, r.candidate.sequence])).toEqual([
      ["lea", 3],
      ["kim", 4],
    ]);
    // A company mute silences every call of the ticker.
    await store.createMute("kim", { scope: "company", symbol: "OOO", callId: other });
    expect(await store.recordFirings([at(5, { subject: other, callId: other, symbol: "OOO" })])).toEqual([]);
    // Recording and muting at once: the sentence is either not recorded or recorded and marked read by the mute.
    const callR = "r".repeat(24);
    const racing = await Promise.all([
      store.recordFirings([at(6, { subject: callR, callId: callR, symbol: "RRR" })]),
      store.createMute("kim", { scope: "call", callId: callR, symbol: "RRR" }),
    ]);
    const { data } = await store.listAlerts("kim", { limit: 50, callId: callR });
    expect(data.every((a) => a.read)).toBe(true);
    expect(data).toHaveLength(racing[0].length);
  });

  it("pauses, resumes and edits a rule; a paused rule is not given to the engine", async () => {
    const rule = await store.createRule("ivy", { kind: "keyword", phrase: "tariff", tickers: ["AAA"] });
    const paused = await store.updateRule("ivy", rule.id, patchedRule(rule, {}), true);
    expect(paused.paused).toBe(true);
    const compiled = async () =>
      (await store.compiledRules(new Map())).rules.filter((r) => r.userId === "ivy").map((r) => r.label);
    expect(await compiled()).toEqual([]);
    const edited = await store.updateRule(
      "ivy",
      rule.id,
      patchedRule(paused, { phrase: "tariffs on steel", tickers: null, name: "Steel" }),
      false,
    );
    expect(edited).toMatchObject({ paused: false, phrase: "tariffs on steel", tickers: null, name: "Steel" });
    expect(await compiled()).toEqual(["Steel"]);
    expect(() => patchedRule(edited, { phrase: null })).toThrow(/phrase/);
    expect(patchedRule(edited, { kind: "guidance" })).toEqual({ kind: "guidance", name: "Steel" });
    await expect(store.updateRule("jon", rule.id, patchedRule(rule, {}), true)).rejects.toMatchObject({
      status: 404,
    });
  });

  it("reads the push subscriptions of several users at once", async () => {
    const sub = (n: number) => ({
      endpoint: `https://push.example.com/${n}`,
      keys: { p256dh: "BNc".padEnd(87, "A"), auth: "x".repeat(22) },
    });
    await store.savePushSubscription("w1", sub(1));
    await store.savePushSubscription("w1", sub(2));
    await store.savePushSubscription("w2", sub(3));
    const byUser = await store.pushSubscriptionsOfUsers(["w1", "w2", "w3", "w1"]);
    expect(
      byUser
        .get("w1")
        ?.map((s) => s.subscription.endpoint)
        .sort(),
    ).toEqual(["https://push.example.com/1", "https://push.example.com/2"]);
    expect(byUser.get("w2")).toHaveLength(1);
    expect(byUser.has("w3")).toBe(false);
  });

  it("lists the inbox newest first with the unread count, and marks read per user", async () => {
    const rule = await store.createRule("bob", { kind: "keyword", phrase: "margin" });
    const a = await store.recordFiring(
      candidate({ userId: "bob", ruleId: rule.id, sequence: 1, text: "one" }),
    );
    const b = await store.recordFiring(
      candidate({ userId: "bob", ruleId: rule.id, sequence: 2, text: "two" }),
    );
    const inbox = await store.listAlerts("bob", { limit: 50 });
    expect(inbox.data.map((x) => x.text)).toEqual(["two", "one"]);
    expect(inbox.unread).toBe(2);
    await expect(store.markRead("alice", a!.id)).rejects.toMatchObject({ status: 404 });
    expect((await store.markRead("bob", a!.id)).read).toBe(true);
    expect(await store.unreadCount("bob")).toBe(1);
    expect((await store.listAlerts("bob", { limit: 50, before: b!.id })).data.map((x) => x.text)).toEqual([
      "one",
    ]);
  });

  it("refuses a rule on someone else's watchlist and saves nothing", async () => {
    const carols = await lists.create("carol", { name: "Semis", tickers: ["NWSC"] });
    await expect(
      store.createRule("dave", { kind: "keyword", phrase: "x", watchlistId: carols.id }),
    ).rejects.toMatchObject({ status: 400 });
    expect(await store.listRules("dave")).toEqual([]);
  });

  it("resolves scopes for the engine: tickers, watchlist, both, or every call", async () => {
    const wl = await lists.create("erin", { name: "Mine", tickers: ["AAA", "BBB"] });
    const onList = await store.createRule("erin", { kind: "call-live", watchlistId: wl.id });
    const both = await store.createRule("erin", { kind: "call-live", watchlistId: wl.id, tickers: ["ccc"] });
    const everywhere = await store.createRule("erin", { kind: "guidance" });
    const hook = await store.createRule("erin", {
      kind: "results",
      tickers: ["AAA"],
      webhookUrl: "https://hooks.example.com/x",
    });
    const { rules, webhooks } = await store.compiledRules(await lists.tickersById());
    const byId = new Map(rules.map((r) => [r.id, r]));
    expect([...byId.get(onList.id)!.tickers!]).toEqual(["AAA", "BBB"]);
    expect([...byId.get(both.id)!.tickers!].sort()).toEqual(["AAA", "BBB", "CCC"]);
    expect(byId.get(everywhere.id)!.tickers).toBeNull();
    expect(webhooks.get(hook.id)).toBe("https://hooks.example.com/x");
    // Deleting the watchlist deletes the rules scoped to it rather than widening them to every call.
    await lists.remove("erin", wl.id);
    expect((await store.listRules("erin")).map((r) => r.id).sort()).toEqual([everywhere.id, hook.id].sort());
  });

  it("logs deliveries against the firing", async () => {
    const rule = await store.createRule("frank", { kind: "keyword", phrase: "x" });
    const alert = await store.recordFiring(candidate({ userId: "frank", ruleId: rule.id }));
    await store.deliveryLog.record({
      alertId: alert!.id,
      channel: "webhook",
      target: "https://hooks.example.com",
      attempt: 1,
      ok: false,
      status: 503,
      error: null,
      durationMs: 12,
    });
    expect(await store.deliveries("frank", alert!.id)).toMatchObject([
      { channel: "webhook", status: 503, ok: false },
    ]);
    expect(await store.deliveries("alice", alert!.id)).toEqual([]);
  });

  it("keeps one VAPID key pair across restarts", async () => {
    const keys = await ensureVapidKeys(store);
    expect(await ensureVapidKeys(new AlertStore(database.db))).toEqual(keys);
  });

  it("stores push subscriptions per user, and never hands one user's endpoint to another", async () => {
    const sub = { endpoint: "https://push.example.com/gina", keys: { p256dh: "BAAA", auth: "CCC" } };
    await store.savePushSubscription("gina", sub);
    await store.savePushSubscription("gina", { ...sub, keys: { p256dh: "BAAB", auth: "CCD" } });
    expect(await store.pushSubscriptionsOf("gina")).toMatchObject([
      { subscription: { keys: { p256dh: "BAAB", auth: "CCD" } } },
    ]);
    // Today hank's save of gina's endpoint moved it to him: gina's pushes went to whoever posted her endpoint.
    await expect(store.savePushSubscription("hank", sub)).rejects.toMatchObject({
      status: 409,
      code: "endpoint_taken",
    });
    expect(await store.pushSubscriptionsOf("gina")).toHaveLength(1);
    expect(await store.pushSubscriptionsOf("hank")).toHaveLength(0);
  });

  it("keeps at most 20 push subscriptions per user: the 21st is a 409", async () => {
    const sub = (i: number) => ({
      endpoint: `https://fcm.googleapis.com/fcm/send/${i}`,
      keys: { p256dh: "BAAA", auth: "CCC" },
    });
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.savePushSubscription("ivy", sub(i))));
    await expect(store.savePushSubscription("ivy", sub(20))).rejects.toMatchObject({
      status: 409,
      code: "limit_reached",
    });
    // Saving one of the twenty again is an update, not a 21st.
    await store.savePushSubscription("ivy", sub(3));
    expect(await store.pushSubscriptionsOf("ivy")).toHaveLength(20);
  });
});
