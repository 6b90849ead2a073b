import { describe, expect, it } from "vitest";
import type { LiveBus, LiveEvent, Replay, StreamEvent } from "./bus";
import { createBrowserFanout } from "./fanout";
import { MemoryBus } from "./memory-bus";
import { sentence, started } from "@/test/support/live-events";

const A = "a".repeat(24);
const B = "b".repeat(24);

describe("the browsers' fan-out", () => {
  it("delivers by ticker or call id filter; * gets everything", () => {
    const bus = new MemoryBus();
    const fanout = createBrowserFanout(bus);
    const got: Record<string, string[]> = { all: [], aaa: [], callB: [], none: [] };
    fanout.subscribe({ tickers: "*", calls: [] }, null, (e) => got.all!.push(e.cursor));
    fanout.subscribe({ tickers: ["AAA"], calls: [] }, null, (e) => got.aaa!.push(e.cursor));
    fanout.subscribe({ tickers: [], calls: [B] }, null, (e) => got.callB!.push(e.cursor));
    fanout.subscribe({ tickers: ["ZZZ"], calls: [] }, null, (e) => got.none!.push(e.cursor));
    bus.publish(started(A, "AAA"));
    const a = bus.headCursor();
    bus.publish(started(B, "BBB"));
    const b = bus.headCursor();
    expect(got).toEqual({ all: [a, b], aaa: [a], callB: [b], none: [] });
  });

  it("replays what followed a cursor (filtered), synchronously, then continues live", () => {
    const bus = new MemoryBus();
    const fanout = createBrowserFanout(bus);
    bus.publish(started(A, "AAA"));
    const c1 = bus.headCursor();
    bus.publish(sentence(A, "AAA", 0));
    bus.publish(started(B, "BBB"));
    const got: StreamEvent[] = [];
    fanout.subscribe({ tickers: ["AAA"], calls: [] }, c1, (e) => got.push(e));
    expect(got).toHaveLength(1);
    bus.publish(sentence(A, "AAA", 1));
    expect(got.map((e) => [e.event, (e.data as { sequence?: number }).sequence])).toEqual([
      ["sentence", 0],
      ["sentence", 1],
    ]);
  });

  it("answers a cursor the bus cannot resume with one reset at the head", () => {
    const bus = new MemoryBus({ now: () => 5 });
    const fanout = createBrowserFanout(bus);
    bus.publish(started(A, "AAA"));
    const got: StreamEvent[] = [];
    fanout.subscribe({ tickers: "*", calls: [] }, "4-1", (e) => got.push(e));
    expect(got).toEqual([
      { event: "reset", symbol: null, cursor: bus.headCursor(), data: { reason: "unknown_cursor" } },
    ]);
  });

  it("skips up to a cursor the bus has not reached yet (another instance served it first)", () => {
    const listeners: ((e: LiveEvent) => void)[] = [];
    const bus = {
      subscribe: (l: (e: LiveEvent) => void) => (listeners.push(l), () => {}),
      replay: (): Replay => ({ kind: "ahead" }),
      headCursor: () => "100-0",
    } as unknown as LiveBus;
    const fanout = createBrowserFanout(bus);
    const got: string[] = [];
    fanout.subscribe({ tickers: "*", calls: [] }, "200-1", (e) => got.push(e.cursor));
    for (const cursor of ["150-0", "200-1", "200-2", "300-0"]) {
      listeners[0]!({ ...started(A, "AAA"), cursor } as LiveEvent);
    }
    expect(got).toEqual(["200-2", "300-0"]);
  });

  it("counts open browser streams only, and one throwing stream does not stop the others", () => {
    const bus = new MemoryBus();
    const subscribed: unknown[] = [];
    bus.subscribe((e) => subscribed.push(e));
    const errors: unknown[] = [];
    const fanout = createBrowserFanout(bus, { onSubscriberError: (e) => errors.push(e) });
    expect(fanout.size()).toBe(0);
    fanout.subscribe({ tickers: "*", calls: [] }, null, () => {
      throw new Error("boom");
    });
    const got: string[] = [];
    const off = fanout.subscribe({ tickers: "*", calls: [] }, null, (e) => got.push(e.cursor));
    expect(fanout.size()).toBe(2);
    bus.publish(started(A, "AAA"));
    off();
    expect(fanout.size()).toBe(1);
    bus.publish(started(B, "BBB"));
    expect(got).toHaveLength(1);
    expect(errors).toHaveLength(2);
  });
});
