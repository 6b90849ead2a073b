import { describe, expect, it } from "vitest";
import type { Alert } from "@/lib/schemas/alerts";
import { MemoryBus } from "../live/memory-bus";
import { createMemoryBus } from "./bus";
import type { EarningsActuals } from "./evaluator";
import type { ActiveMute } from "./mutes";
import type { AlertCandidate, CompiledRule } from "./rules";
import { AlertService, type AlertSource } from "./service";
import type { WebhookPayload, WebhookSender } from "./webhook";

const CALL = "c".repeat(24);

function rule(id: string, over: Partial<CompiledRule>): CompiledRule {
  return {
    id,
    userId: "ann",
    kind: "keyword",
    label: id,
    phrase: null,
    tickers: null,
    speakerRole: null,
    threshold: null,
    ...over,
  };
}

/** A source that dedupes like the database's unique index does. */
function memorySource(rules: CompiledRule[], webhooks = new Map<string, string>(), mutes: ActiveMute[] = []) {
  const recorded = new Map<string, Alert>();
  const ended: string[] = [];
  let cursor: number | null = null;
  const source: AlertSource = {
    loadRules: async () => ({ rules, webhooks }),
    loadMutes: async () => mutes,
    async endMutesOf(callId) {
      ended.push(callId);
      const before = mutes.length;
      mutes.splice(0, mutes.length, ...mutes.filter((m) => m.callId !== callId));
      return before - mutes.length;
    },
    async recordFirings(candidates) {
      return candidates.flatMap((c) => {
        const alert = record(c);
        return alert ? [{ candidate: c, alert }] : [];
      });
    },
    loadResultsCursor: async () => cursor,
    saveResultsCursor: async (s) => void (cursor = s),
  };
  function record(c: AlertCandidate): Alert | null {
    const key = [c.userId, c.subject, c.sequence ?? -1].join("|");
    if (recorded.has(key)) return null;
    const alert: Alert = {
      id: String(recorded.size + 1),
      ruleId: c.rules[0]!.ruleId,
      kind: c.rules[0]!.kind,
      rules: c.rules,
      callId: c.callId,
      symbol: c.symbol,
      sequence: c.sequence,
      startMs: c.startMs,
      text: c.text,
      firedAt: new Date().toISOString(),
      read: false,
    };
    recorded.set(key, alert);
    return alert;
  }
  return { source, recorded, ended, cursor: () => cursor };
}

function fakeWebhooks() {
  const sent: { url: string; payload: WebhookPayload }[] = [];
  const sender = {
    deliver: async (url: string, payload: WebhookPayload) => (sent.push({ url, payload }), true),
    cancelRules: () => 0,
    stop: async () => {},
  };
  return { sender: sender as unknown as WebhookSender, sent };
}

function setup(
  rules: CompiledRule[],
  options: {
    leader?: () => boolean;
    earnings?: EarningsActuals[][];
    mutes?: ActiveMute[];
    webhooks?: Map<string, string>;
    describeGuidance?: (c: AlertCandidate) => Promise<string | null>;
  } = {},
) {
  const live = new MemoryBus();
  const bus = createMemoryBus();
  const webhooks = options.webhooks ?? new Map([["k", "https://hooks.example.com/x"]]);
  const mem = memorySource(rules, webhooks, options.mutes);
  const hooks = fakeWebhooks();
  const polls: number[] = [];
  const service = new AlertService({
    live,
    isLeader: options.leader ?? (() => true),
    source: mem.source,
    bus,
    webhooks: hooks.sender,
    push: async () => null,
    pushSubscriptionsOf: async () => new Map(),
    earningsUpdatedSince: options.earnings
      ? async (since) => {
          polls.push(since);
          return options.earnings!.shift() ?? [];
        }
      : null,
    log: { info() {}, warn() {}, error() {} },
    publicBaseUrl: "https://callroom.example",
    describeGuidance: options.describeGuidance,
    guidanceDetailMs: 200,
    recordRetryMs: [10, 20, 40],
    now: () => 1_800_000_000_000,
  });
  return { live, bus, service, mem, hooks, polls };
}

const sentence = (sequence: number, text: string) =>
  ({
    callId: CALL,
    sequence,
    text,
    speaker: "SPEAKER_1",
    startMs: sequence * 5_000,
    endMs: sequence * 5_000 + 4_000,
    confidence: 0.9,
  }) as const;

describe("AlertService", () => {
  it("evaluates live sentences, records once, and delivers to the user's tabs and the rule's webhook", async () => {
    const { live, bus, service, hooks } = setup([
      rule("k", { phrase: "tariff", tickers: new Set(["NWSC"]) }),
    ]);
    const received: Alert[] = [];
    bus.subscribeUser("ann", (a) => received.push(a));
    service.start();
    await service.reload();
    live.publish({
      event: "call.started",
      symbol: "NWSC",
      data: { callId: CALL, symbol: "NWSC", name: "Northwind", startTime: "2026-11-24T12:00:00Z" },
    });
    live.publish({ event: "sentence", symbol: "NWSC", data: sentence(7, "New tariffs weigh on us.") });
    live.publish({ event: "sentence", symbol: "NWSC", data: sentence(8, "Nothing to see.") });
    // The same sentence again (a replay after a hand-over) is not delivered twice.
    live.publish({ event: "sentence", symbol: "NWSC", data: sentence(7, "New tariffs weigh on us.") });
    await service.idle();
    expect(received).toMatchObject([
      { ruleId: "k", callId: CALL, sequence: 7, startMs: 35_000, text: "New tariffs weigh on us." },
    ]);
    expect(hooks.sent).toHaveLength(1);
    expect(hooks.sent[0]!.payload.link).toBe(`https://callroom.example/calls/${CALL}?s=7&t=35`);
    await service.stop();
  });

  it("does nothing on a follower", async () => {
    const { live, bus, service } = setup([rule("k", { phrase: "tariff" })], { leader: () => false });
    const received: Alert[] = [];
    bus.subscribeUser("ann", (a) => received.push(a));
    service.start();
    await service.reload();
    live.publish({ event: "sentence", symbol: "NWSC", data: sentence(1, "tariffs") });
    await service.idle();
    expect(received).toEqual([]);
    await service.stop();
  });

  it("reloads rules when the bus says they changed", async () => {
    const rules: CompiledRule[] = [];
    const { live, bus, service, mem } = setup(rules);
    service.start();
    await service.reload();
    rules.push(rule("late", { phrase: "margin" }));
    bus.publish({ type: "rules-changed" });
    await service.reload();
    live.publish({ event: "sentence", symbol: "ACME", data: sentence(2, "Margins expanded.") });
    await service.idle();
    expect([...mem.recorded.values()].map((a) => a.ruleId)).toEqual(["late"]);
    await service.stop();
  });

  it("sends one alert per sentence naming every rule, to each webhook its rules name once", async () => {
    const { live, bus, service, hooks } = setup(
      [rule("a", { phrase: "tariff" }), rule("b", { phrase: "steel" }), rule("c", { phrase: "tariffs on" })],
      {
        webhooks: new Map([
          ["a", "https://hooks.example.com/one"],
          ["b", "https://hooks.example.com/one"],
          ["c", "https://hooks.example.com/two"],
        ]),
      },
    );
    const received: Alert[] = [];
    bus.subscribeUser("ann", (a) => received.push(a));
    service.start();
    await service.reload();
    live.publish({ event: "sentence", symbol: "NWSC", data: sentence(3, "Tariffs on steel rose.") });
    await service.idle();
    expect(received).toHaveLength(1);
    expect(received[0]!.rules.map((r) => [r.ruleId, r.matched])).toEqual([
      ["a", ["Tariffs"]],
      ["c", ["Tariffs on"]],
      ["b", ["steel"]],
    ]);
    expect(hooks.sent.map((h) => h.url).sort()).toEqual([
      "https://hooks.example.com/one",
      "https://hooks.example.com/two",
    ]);
    await service.stop();
  });

  it("records nothing for a muted call or company, and lifts the mutes that end with the call", async () => {
    const far = 1_900_000_000_000;
    const mutes: ActiveMute[] = [
      { userId: "ann", scope: "call", callId: CALL, symbol: null, expiresAtMs: far },
      { userId: "bea", scope: "company", callId: CALL, symbol: "NWSC", expiresAtMs: far },
      // Lapsed: no longer silences anything.
      { userId: "cy", scope: "company", callId: null, symbol: "NWSC", expiresAtMs: 1_700_000_000_000 },
    ];
    const { live, service, mem } = setup(
      ["ann", "bea", "cy", "dee"].map((u) => rule(u, { userId: u, phrase: "tariff" })),
      { mutes },
    );
    service.start();
    await service.reload();
    live.publish({ event: "sentence", symbol: "NWSC", data: sentence(4, "Tariffs again.") });
    await service.idle();
    expect([...mem.recorded.values()].map((a) => a.ruleId).sort()).toEqual(["cy", "dee"]);
    live.publish({ event: "call.status", symbol: "NWSC", data: { callId: CALL, status: "completed" } });
    await service.idle();
    expect(mem.ended).toEqual([CALL]);
    await service.reload();
    live.publish({ event: "sentence", symbol: "NWSC", data: sentence(5, "Tariffs, once more.") });
    await service.idle();
    expect(
      [...mem.recorded.values()]
        .filter((a) => a.sequence === 5)
        .map((a) => a.ruleId)
        .sort(),
    ).toEqual(["ann", "bea", "cy", "dee"]);
    await service.stop();
  });

  it("adds the comparison with consensus to a guidance match, and never waits longer than allowed for it", async () => {
    const slow = setup([rule("g", { kind: "guidance" })], {
      describeGuidance: () => new Promise((r) => setTimeout(() => r("too late"), 5_000)),
    });
    const fast = setup([rule("g", { kind: "guidance" }), rule("k", { phrase: "outlook" })], {
      describeGuidance: async (c) => `guides revenue for ${c.symbol} 1.6% below consensus`,
    });
    for (const { live, service } of [slow, fast]) {
      service.start();
      await service.reload();
      live.publish({
        event: "sentence",
        symbol: "NWSC",
        data: sentence(9, "Our outlook: we now expect $4.1B."),
      });
      await service.idle();
      await service.stop();
    }
    expect([...slow.mem.recorded.values()][0]!.rules[0]!.detail).toBeNull();
    expect([...fast.mem.recorded.values()][0]!.rules.map((r) => [r.ruleId, r.detail])).toEqual([
      ["g", "guides revenue for NWSC 1.6% below consensus"],
      ["k", null],
    ]);
  });

  it("polls results from a stored cursor and fires once per record", async () => {
    const record: EarningsActuals = {
      id: "e1",
      symbol: "NWSC",
      name: "Northwind",
      period: "Q3",
      periodYear: 2026,
      eps: 1.2,
      epsEst: 1,
      revenue: null,
      revenueEst: null,
    };
    const { service, mem, polls } = setup([rule("r", { kind: "results", tickers: new Set(["NWSC"]) })], {
      earnings: [[record], [record]],
    });
    await service.reload();
    await service.pollResults();
    await service.pollResults();
    await service.idle();
    expect(polls).toEqual([1_800_000_000, 1_800_000_000]);
    expect(mem.cursor()).toBe(1_800_000_000);
    expect([...mem.recorded.values()]).toMatchObject([{ ruleId: "r", callId: null, symbol: "NWSC" }]);
  });

  describe("nothing lost", () => {
    const record: EarningsActuals = {
      id: "e9",
      symbol: "NWSC",
      name: "Northwind",
      period: "Q3",
      periodYear: 2026,
      eps: 1.2,
      epsEst: 1,
      revenue: null,
      revenueEst: null,
    };

    /** Makes the source's recording fail `times` times before it works again. */
    function failing(mem: ReturnType<typeof memorySource>, times: number) {
      const record = mem.source.recordFirings.bind(mem.source);
      let left = times;
      mem.source.recordFirings = async (candidates) => {
        if (left-- > 0) throw new Error("connection reset");
        return record(candidates);
      };
    }

    it("retries a failed recording, and delivers what it then recorded", async () => {
      const { live, bus, service, mem } = setup([rule("k", { phrase: "tariff" })]);
      failing(mem, 2);
      const received: Alert[] = [];
      bus.subscribeUser("ann", (a) => received.push(a));
      service.start();
      await service.reload();
      live.publish({ event: "sentence", symbol: "NWSC", data: sentence(1, "Tariffs bit.") });
      // Retried after 10 and 20 ms.
      await new Promise((r) => setTimeout(r, 200));
      await service.idle();
      expect(received.map((a) => a.sequence)).toEqual([1]);
      await service.stop();
    });

    it("keeps the results cursor until the firing is recorded", async () => {
      const { service, mem, polls } = setup([rule("r", { kind: "results", tickers: new Set(["NWSC"]) })], {
        earnings: [[record], [record]],
      });
      failing(mem, 4);
      await service.reload();
      await service.pollResults();
      expect(mem.cursor(), "not advanced past a record that was not recorded").toBeNull();
      expect(mem.recorded.size).toBe(0);
      await service.pollResults();
      expect(polls).toEqual([1_800_000_000, 1_800_000_000]);
      expect(mem.cursor()).toBe(1_800_000_000);
      expect([...mem.recorded.values()]).toMatchObject([{ symbol: "NWSC" }]);
    });
  });
});
