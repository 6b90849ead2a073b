/**
 * The live bus on Redis and leader election against a real redis-server: shared log, resumable cursors (through the
 * browsers' fan-out of each instance), fencing, failover.
 */
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LiveEvent, LivePayload, StreamEvent } from "@/server/live/bus";
import { createBrowserFanout } from "@/server/live/fanout";
import { EPOCH_KEY, LeaderElection } from "@/server/scale/leader";
import { RedisBus } from "@/server/scale/redis-bus";
import { startTestRedis, type TestRedis } from "./redis-server";

let redis: TestRedis;
const clients: Redis[] = [];
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

function connect(): Redis {
  const c = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  c.on("error", () => {});
  clients.push(c);
  return c;
}

function bus(onPublishFailed?: (e: Error) => void, mirrorCapacity = 100): RedisBus {
  return new RedisBus({
    redis: connect(),
    tail: connect(),
    log: quiet,
    blockMs: 200,
    mirrorCapacity,
    onPublishFailed,
  });
}

async function waitUntil(test: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const CALL = "aaaaaaaaaaaaaaaaaaaaaaaa";
const started: LivePayload = {
  event: "call.started",
  symbol: "ACME",
  data: { callId: CALL, symbol: "ACME", name: "Acme Q1", startTime: "2026-01-01T00:00:00.000Z" },
};
// Cast: the sentence event's optional extras (e.g. sentiment) do not matter to the bus.
const sentence = (sequence: number): LivePayload =>
  ({
    event: "sentence",
    symbol: "ACME",
    data: {
      callId: CALL,
      sequence,
      text: `s${sequence}`,
      speaker: "A",
      startMs: sequence * 10,
      endMs: sequence * 10 + 5,
      confidence: null,
    },
  }) as LivePayload;

beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  for (const c of clients) c.disconnect();
  await redis?.stop();
});

describe("RedisBus", () => {
  it("shares one log: events published by the writer reach subscribers of every bus, resumable anywhere", async () => {
    await connect().set(EPOCH_KEY, "1");
    const a = bus();
    const b = bus();
    await Promise.all([a.start(), b.start()]);
    const browsersA = createBrowserFanout(a);
    const browsersB = createBrowserFanout(b);
    const seenA: LiveEvent[] = [];
    const seenB: StreamEvent[] = [];
    a.subscribe((e) => seenA.push(e));
    browsersB.subscribe({ tickers: ["ACME"], calls: [] }, null, (e) => seenB.push(e));
    expect(await a.beginWriting(1)).toEqual([]);
    a.publish(started);
    for (let i = 0; i < 5; i += 1) a.publish(sentence(i));
    await waitUntil(() => seenA.length === 6 && seenB.length === 6, 5_000, "both buses to see six events");
    expect(seenB.map((e) => e.cursor)).toEqual(seenA.map((e) => e.cursor));
    expect(b.snapshot(CALL)?.sentences.map((s) => s.sequence)).toEqual([0, 1, 2, 3, 4]);

    // Resume on the other instance from a cursor handed out by the first.
    const resumed: StreamEvent[] = [];
    browsersB.subscribe({ tickers: "*", calls: [] }, seenA[2]!.cursor, (e) => resumed.push(e));
    expect(resumed.map((e) => (e.data as { sequence?: number }).sequence)).toEqual([2, 3, 4]);

    // A cursor a moment ahead of this bus's tail (seen elsewhere first) skips up to it, then follows.
    const ahead: StreamEvent[] = [];
    browsersA.subscribe({ tickers: "*", calls: [] }, `${Date.now() + 1_000}-0`, (e) => ahead.push(e));
    const garbage: StreamEvent[] = [];
    browsersA.subscribe({ tickers: "*", calls: [] }, "nonsense", (e) => garbage.push(e));
    expect(garbage.map((e) => e.event)).toEqual(["reset"]);

    // The per-call state the next leader resumes from.
    const state = await b.beginWriting(1);
    expect(state).toEqual([
      expect.objectContaining({ callId: CALL, nextSeq: 5, lastEndMs: 45, status: "live" }),
    ]);
    a.stop();
    b.stop();
    expect(ahead).toEqual([]);
  });

  it("answers reset for a cursor older than its mirror, and loads the stream's tail on start", async () => {
    const c = bus(undefined, 3);
    await c.start();
    expect(c.headCursor()).not.toBe("0-0");
    const got: StreamEvent[] = [];
    createBrowserFanout(c).subscribe({ tickers: "*", calls: [] }, "1-0", (e) => got.push(e));
    expect(got).toEqual([expect.objectContaining({ event: "reset", data: { reason: "cursor_too_old" } })]);
    c.stop();
  });

  it("appends a sentence once when the same append reaches Redis twice (ioredis resends after a reconnect)", async () => {
    const epoch = Number(await connect().incr(EPOCH_KEY));
    const commands = connect();
    const writer = new RedisBus({ redis: commands, tail: connect(), log: quiet, blockMs: 200 });
    await writer.start();
    await writer.beginWriting(epoch);
    const call = "bbbbbbbbbbbbbbbbbbbbbbbb";
    const mine = (p: LivePayload): LivePayload =>
      ({ ...p, data: { ...p.data, callId: call } }) as LivePayload;
    const before = await connect().xlen("callroom:events");
    writer.publish(mine(started));
    writer.publish(mine(sentence(0)));
    // What ioredis does with a command a dropped connection left unanswered: the very same call again.
    writer.publish(mine(sentence(0)));
    writer.publish(mine(sentence(1)));
    writer.publish(mine(sentence(1)));
    writer.publish(mine(sentence(2)));
    await commands.ping(); // one connection answers in order: every append before it is done
    const appended = (await connect().xrange("callroom:events", "-", "+"))
      .map(([, fields]) => JSON.parse(fields[1]!) as LivePayload)
      .filter((p) => p.data.callId === call)
      .map((p) => (p.event === "sentence" ? `sentence ${p.data.sequence}` : p.event));
    expect(appended).toEqual(["call.started", "sentence 0", "sentence 1", "sentence 2"]);
    expect(await connect().xlen("callroom:events")).toBe(before + 4);
    // Skipping a duplicate is not a failure: the writer keeps its leadership.
    expect(writer.isWriting).toBe(true);
    expect((await writer.beginWriting(epoch)).find((c) => c.callId === call)?.nextSeq).toBe(3);
    writer.stop();
  });

  it("runs a resent append once, whatever its event: the same command twice leaves one entry", async () => {
    const epoch = Number(await connect().incr(EPOCH_KEY));
    const commands = connect();
    const writer = new RedisBus({ redis: commands, tail: connect(), log: quiet, blockMs: 200 });
    // The bus has defined the command. Each is now sent twice, arguments and all: what ioredis does when a dropped
    // connection lost the reply of a command that had run.
    const fenced = commands as unknown as { callroomFencedAppend: (...args: string[]) => Promise<unknown> };
    const once = fenced.callroomFencedAppend.bind(commands);
    fenced.callroomFencedAppend = (...args: string[]) => {
      void once(...args);
      return once(...args);
    };
    await writer.start();
    await writer.beginWriting(epoch);
    const call = "cccccccccccccccccccccccc";
    const mine = (p: LivePayload): LivePayload =>
      ({ ...p, data: { ...p.data, callId: call } }) as LivePayload;
    writer.publish(mine(started));
    writer.publish(mine({ event: "call.status", symbol: "ACME", data: { callId: CALL, status: "live" } }));
    writer.publish(mine(sentence(0)));
    writer.publish(
      mine({ event: "call.status", symbol: "ACME", data: { callId: CALL, status: "completed" } }),
    );
    await commands.ping();
    const appended = (await connect().xrange("callroom:events", "-", "+"))
      .map(([, fields]) => JSON.parse(fields[1]!) as LivePayload)
      .filter((p) => p.data.callId === call)
      .map((p) =>
        p.event === "sentence"
          ? `sentence ${p.data.sequence}`
          : p.event === "call.status"
            ? p.data.status
            : p.event,
      );
    expect(appended).toEqual(["call.started", "live", "sentence 0", "completed"]);
    expect(writer.isWriting).toBe(true);
    writer.stop();
  });

  it("fences a stale writer: once another leader took the epoch, its appends are refused and it is told", async () => {
    const failures: Error[] = [];
    const stale = bus((e) => failures.push(e));
    await stale.start();
    const epoch = Number(await connect().get(EPOCH_KEY));
    await stale.beginWriting(epoch);
    await connect().incr(EPOCH_KEY); // a new leader was elected while this one was paused
    const before = await connect().xlen("callroom:events");
    stale.publish(sentence(5));
    await waitUntil(() => failures.length === 1, 5_000, "the fenced append to fail");
    expect(failures[0]!.message).toMatch(/FENCED/);
    expect(stale.isWriting).toBe(false);
    expect(await connect().xlen("callroom:events")).toBe(before);
    stale.stop();
  });
});

describe("LeaderElection", () => {
  it("elects exactly one leader, and another takes over within 10 s when it dies", async () => {
    const events: string[] = [];
    const make = (name: string, client: Redis) =>
      new LeaderElection({
        redis: client,
        instanceId: name,
        log: quiet,
        ttlMs: 2_000,
        renewMs: 500,
        retryMs: 300,
        onElected: (epoch) => events.push(`${name}+${epoch}`),
        onDemoted: (reason) => events.push(`${name}-${reason}`),
      });
    const dying = connect();
    const one = make("one", dying);
    const two = make("two", connect());
    one.start();
    await waitUntil(() => one.role === "leader", 5_000, "the first to lead");
    two.start();
    await new Promise((r) => setTimeout(r, 1_500));
    expect([one.role, two.role]).toEqual(["leader", "follower"]);
    const epochOne = one.epoch!;

    // The leader's process dies: its connection goes, nothing is released.
    dying.disconnect();
    const diedAt = Date.now();
    await waitUntil(() => two.role === "leader", 10_000, "the survivor to take over");
    expect(Date.now() - diedAt).toBeLessThan(10_000);
    expect(two.epoch).toBeGreaterThan(epochOne);
    // The dead one also stepped down on its own (it could not renew).
    await waitUntil(() => one.role === "follower", 5_000, "the old leader to step down");
    await one.stop();
    await two.stop();
    expect(events.filter((e) => e.includes("+"))).toHaveLength(2);
  });
});
