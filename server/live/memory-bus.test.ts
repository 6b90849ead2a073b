import { describe, expect, it } from "vitest";
import { sentence, started } from "@/test/support/live-events";
import type { LiveEvent } from "./bus";
import { MemoryBus } from "./memory-bus";

const A = "a".repeat(24);
const B = "b".repeat(24);

describe("MemoryBus", () => {
  it("issues monotonically increasing cursors of one epoch, and every subscriber sees every event in order", () => {
    const bus = new MemoryBus({ now: () => 1_700_000_000_000 });
    const seen: string[][] = [[], []];
    bus.subscribe((e) => seen[0]!.push(e.cursor));
    bus.subscribe((e) => seen[1]!.push(e.cursor));
    for (const p of [started(A, "AAA"), sentence(A, "AAA", 0), started(B, "BBB")]) bus.publish(p);
    const cursors = ["1700000000000-1", "1700000000000-2", "1700000000000-3"];
    expect(seen).toEqual([cursors, cursors]);
    expect(bus.headCursor()).toBe("1700000000000-3");
  });

  it("replays what followed a cursor", () => {
    const bus = new MemoryBus({ now: () => 7 });
    bus.publish(started(A, "AAA"));
    bus.publish(sentence(A, "AAA", 0));
    bus.publish(started(B, "BBB"));
    const replay = bus.replay("7-1");
    expect(replay.kind).toBe("events");
    const events = (replay as { events: readonly LiveEvent[] }).events;
    expect(events.map((e) => [e.cursor, e.event])).toEqual([
      ["7-2", "sentence"],
      ["7-3", "call.started"],
    ]);
    expect(bus.replay("7-3")).toEqual({ kind: "events", events: [] });
  });

  it("cannot resume a cursor that fell out of the buffer, is from another epoch, malformed or never issued", () => {
    const bus = new MemoryBus({ replayCapacity: 3, now: () => 5 });
    bus.publish(started(A, "AAA"));
    for (let i = 0; i < 5; i += 1) bus.publish(sentence(A, "AAA", i));
    expect(bus.replay("5-1")).toEqual({ kind: "reset", reason: "cursor_too_old" });
    expect(bus.replay("4-1")).toEqual({ kind: "reset", reason: "unknown_cursor" });
    expect(bus.replay("garbage")).toEqual({ kind: "reset", reason: "unknown_cursor" });
    expect(bus.replay("5-999")).toEqual({ kind: "reset", reason: "unknown_cursor" });
  });

  it("keeps each call's state: metadata, sentences so far, status; `call` without the sentences", () => {
    const bus = new MemoryBus();
    bus.publish(started(A, "AAA"));
    bus.publish(sentence(A, "AAA", 0));
    bus.publish(sentence(A, "AAA", 1));
    const snap = bus.snapshot(A.toUpperCase());
    expect(snap).toMatchObject({ callId: A, symbol: "AAA", status: "live", cursor: bus.headCursor() });
    expect(snap?.sentences.map((s) => s.sequence)).toEqual([0, 1]);
    expect(bus.call(A)).toEqual({
      callId: A,
      symbol: "AAA",
      name: "AAA Inc",
      startTime: "2026-01-01T00:00:00.000Z",
      status: "live",
    });
    bus.publish({ event: "call.status", symbol: "AAA", data: { callId: A, status: "completed" } });
    expect(bus.snapshot(A)?.status).toBe("completed");
    expect(bus.snapshot(B)).toBeNull();
    expect(bus.call(B)).toBeNull();
  });

  it("evicts finished calls after their retention", () => {
    let now = 0;
    const bus = new MemoryBus({ finishedRetentionMs: 1_000, now: () => now });
    bus.publish(started(A, "AAA"));
    bus.publish(started(B, "BBB"));
    bus.publish({ event: "call.status", symbol: "AAA", data: { callId: A, status: "enriched" } });
    now = 2_000;
    expect(bus.calls().map((c) => c.callId)).toEqual([B]);
  });

  it("unsubscribes, and one throwing subscriber does not stop the others", () => {
    const errors: unknown[] = [];
    const bus = new MemoryBus({ onSubscriberError: (e) => errors.push(e) });
    const got: string[] = [];
    bus.subscribe(() => {
      throw new Error("boom");
    });
    const off = bus.subscribe((e) => got.push(e.cursor));
    bus.publish(started(A, "AAA"));
    off();
    bus.publish(started(B, "BBB"));
    expect(got).toHaveLength(1);
    expect(errors).toHaveLength(2);
  });
});
