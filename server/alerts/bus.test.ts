/**
 * The alert bus against a real redis-server: two instances (two pairs of connections, as two processes would hold),
 * an alert published on one reaches the user's tabs on the other exactly once, never another user's, and not after
 * the tab unsubscribed.
 */
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Alert } from "@/lib/schemas/alerts";
import { startTestRedis, type TestRedis } from "../../test/scale/redis-server";
import { ALERT_CHANNEL, createMemoryBus, createRedisBus, type AlertBus } from "./bus";

let redis: TestRedis;
const clients: Redis[] = [];
const buses: AlertBus[] = [];
const errors: unknown[] = [];

function connect(): Redis {
  const c = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  c.on("error", () => {});
  clients.push(c);
  return c;
}

function instance(onError: unknown[] = errors): AlertBus {
  const bus = createRedisBus(connect(), connect(), (error) => onError.push(error));
  buses.push(bus);
  return bus;
}

async function waitUntil(test: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Pub/sub drops what is published before a subscription is acknowledged: wait until every instance listens. */
async function listening(count: number): Promise<void> {
  const admin = connect();
  await waitUntil(
    async () => {
      const reply = (await admin.pubsub("NUMSUB", ALERT_CHANNEL)) as [string, number];
      return Number(reply[1]) >= count;
    },
    5_000,
    `${count} subscribers on ${ALERT_CHANNEL}`,
  );
}

let nextId = 1;
function alert(text: string): Alert {
  return {
    id: String(nextId++),
    ruleId: "7",
    kind: "keyword",
    rules: [{ ruleId: "7", kind: "keyword", label: "“tariff”", matched: ["tariffs"], detail: null }],
    callId: "a".repeat(24),
    symbol: "NWSC",
    sequence: 12,
    startMs: 48_000,
    text,
    firedAt: "2026-11-24T14:00:00.000Z",
    read: false,
  };
}

beforeAll(async () => {
  redis = await startTestRedis();
}, 30_000);

afterAll(async () => {
  for (const bus of buses) await bus.close();
  for (const c of clients) c.disconnect();
  await redis?.stop();
});

describe("the Redis alert bus between two instances", () => {
  it("delivers an alert published on one instance to the user's tabs on the other, once, and to no one else", async () => {
    const leader = instance();
    const other = instance();
    await listening(2);

    const annOnOther: Alert[] = [];
    const annSecondTab: Alert[] = [];
    const bobOnOther: Alert[] = [];
    const annOnLeader: Alert[] = [];
    other.subscribeUser("ann", (a) => annOnOther.push(a));
    other.subscribeUser("ann", (a) => annSecondTab.push(a));
    other.subscribeUser("bob", (a) => bobOnOther.push(a));
    leader.subscribeUser("ann", (a) => annOnLeader.push(a));

    const forAnn = alert("Tariffs weighed on margin.");
    leader.publish({ type: "alert", userId: "ann", alert: forAnn });
    // Messages of one connection arrive in order: once Bob's later alert is in, Ann's copies have all arrived.
    const forBob = alert("Guidance raised.");
    leader.publish({ type: "alert", userId: "bob", alert: forBob });
    await waitUntil(() => bobOnOther.length > 0 && annOnLeader.length > 0, 5_000, "the alerts");

    expect(annOnOther).toEqual([forAnn]);
    expect(annSecondTab).toEqual([forAnn]);
    // The publishing instance's own tabs of the user get it through Redis too, and only once.
    expect(annOnLeader).toEqual([forAnn]);
    expect(bobOnOther).toEqual([forBob]);
    expect(errors).toEqual([]);
  });

  it("stops delivering to a tab that unsubscribed, and keeps delivering to the user's other tabs", async () => {
    const leader = instance();
    const other = instance();
    await listening(4);

    const closedTab: Alert[] = [];
    const openTab: Alert[] = [];
    const unsubscribe = other.subscribeUser("cat", (a) => closedTab.push(a));
    other.subscribeUser("cat", (a) => openTab.push(a));
    const first = alert("first");
    leader.publish({ type: "alert", userId: "cat", alert: first });
    await waitUntil(() => openTab.length === 1, 5_000, "the first alert");
    expect(closedTab).toEqual([first]);

    unsubscribe();
    const second = alert("second");
    leader.publish({ type: "alert", userId: "cat", alert: second });
    await waitUntil(() => openTab.length === 2, 5_000, "the second alert");
    expect(openTab).toEqual([first, second]);
    expect(closedTab).toEqual([first]);
  });

  it("tells every instance that the rules changed", async () => {
    const saver = instance();
    const leader = instance();
    await listening(6);
    let reloads = 0;
    const off = leader.onRulesChanged(() => (reloads += 1));
    saver.publish({ type: "rules-changed" });
    await waitUntil(() => reloads === 1, 5_000, "rules-changed");
    off();
  });

  it("drops a message on its channel that is not a bus message, and keeps listening", async () => {
    const ownErrors: unknown[] = [];
    const bus = instance(ownErrors);
    await listening(7);
    const got: Alert[] = [];
    bus.subscribeUser("dan", (a) => got.push(a));
    const stranger = connect();
    await stranger.publish(ALERT_CHANNEL, "not json");
    await stranger.publish(ALERT_CHANNEL, JSON.stringify({ type: "alert", userId: "dan", alert: { id: 1 } }));
    const fine = alert("fine");
    bus.publish({ type: "alert", userId: "dan", alert: fine });
    await waitUntil(() => got.length === 1, 5_000, "the valid alert");
    expect(got).toEqual([fine]);
    expect(ownErrors).toHaveLength(2);
  });

  it("listens again after its subscriber connection was dropped", async () => {
    const leader = instance();
    const other = instance();
    await listening(9);
    const got: Alert[] = [];
    other.subscribeUser("eve", (a) => got.push(a));
    const admin = connect();
    await admin.call("CLIENT", "KILL", "TYPE", "pubsub");
    // ioredis reconnects and subscribes again by itself.
    await listening(9);
    const after = alert("after the drop");
    leader.publish({ type: "alert", userId: "eve", alert: after });
    await waitUntil(() => got.length === 1, 5_000, "the alert after the drop");
    expect(got).toEqual([after]);
  });

  it("stops listening once closed", async () => {
    const bus = instance();
    await listening(10);
    const admin = connect();
    const before = Number(((await admin.pubsub("NUMSUB", ALERT_CHANNEL)) as [string, number])[1]);
    await bus.close();
    await waitUntil(
      async () =>
        Number(((await admin.pubsub("NUMSUB", ALERT_CHANNEL)) as [string, number])[1]) === before - 1,
      5_000,
      "the closed bus to unsubscribe",
    );
  });
});

describe("the in-process alert bus", () => {
  it("delivers to the user's listeners only, until they unsubscribe", () => {
    const bus = createMemoryBus();
    const ann: Alert[] = [];
    const bob: Alert[] = [];
    const off = bus.subscribeUser("ann", (a) => ann.push(a));
    bus.subscribeUser("bob", (a) => bob.push(a));
    const one = alert("one");
    bus.publish({ type: "alert", userId: "ann", alert: one });
    off();
    bus.publish({ type: "alert", userId: "ann", alert: alert("two") });
    expect(ann).toEqual([one]);
    expect(bob).toEqual([]);
  });
});
