import { describe, expect, it } from "vitest";
import { InMemoryHub, type DeliveredEvent, type LivePayload } from "./hub";

const A = "a".repeat(24);
const B = "b".repeat(24);

function started(callId: string, symbol: string): LivePayload {
  return {
    event: "call.started",
    symbol,
    data: { callId, symbol, name: `${symbol} Inc`, startTime: "2026-01-01T00:00:00.000Z" },
  };
}
function sentence(callId: string, symbol: string, sequence: number): LivePayload {
  return {
    event: "sentence",
    symbol,
    data: {
      callId,
      sequence,
      text: `s${sequence}`,
      speaker: "OPERATOR",
      startMs: sequence,
      endMs: sequence + 1,
      confidence: 1,
    },
  };
}

describe("InMemoryHub", () => {
  it("issues monotonically increasing cursors of one epoch", () => {
    const hub = new InMemoryHub({ now: () => 1_700_000_000_000 });
    const cursors = [started(A, "AAA"), sentence(A, "AAA", 0), sentence(A, "AAA", 1)].map(
      (p) => hub.publish(p).cursor,
    );
    expect(cursors).toEqual(["1700000000000-1", "1700000000000-2", "1700000000000-3"]);
    expect(hub.headCursor()).toBe("1700000000000-3");
  });

  it("delivers by ticker or call id filter; * gets everything", () => {
    const hub = new InMemoryHub();
    const got: Record<string, string[]> = { all: [], aaa: [], callB: [], none: [] };
    hub.subscribe({ tickers: "*", calls: [] }, null, (e) => got.all!.push(e.cursor));
    hub.subscribe({ tickers: ["AAA"], calls: [] }, null, (e) => got.aaa!.push(e.cursor));
    hub.subscribe({ tickers: [], calls: [B] }, null, (e) => got.callB!.push(e.cursor));
    hub.subscribe({ tickers: ["ZZZ"], calls: [] }, null, (e) => got.none!.push(e.cursor));
    const a = hub.publish(started(A, "AAA")).cursor;
    const b = hub.publish(started(B, "BBB")).cursor;
    expect(got).toEqual({ all: [a, b], aaa: [a], callB: [b], none: [] });
  });

  it("replays what followed a cursor, then continues live", () => {
    const hub = new InMemoryHub();
    const c1 = hub.publish(started(A, "AAA")).cursor;
    hub.publish(sentence(A, "AAA", 0));
    hub.publish(started(B, "BBB"));
    const got: DeliveredEvent[] = [];
    hub.subscribe({ tickers: ["AAA"], calls: [] }, c1, (e) => got.push(e));
    hub.publish(sentence(A, "AAA", 1));
    expect(got.map((e) => [e.event, (e.data as { sequence?: number }).sequence])).toEqual([
      ["sentence", 0],
      ["sentence", 1],
    ]);
  });

  it("answers reset when the cursor fell out of the buffer, or is from another epoch or malformed", () => {
    const hub = new InMemoryHub({ replayCapacity: 3, now: () => 5 });
    const first = hub.publish(started(A, "AAA")).cursor;
    for (let i = 0; i < 5; i += 1) hub.publish(sentence(A, "AAA", i));
    for (const [cursor, reason] of [
      [first, "cursor_too_old"],
      ["4-1", "unknown_cursor"],
      ["garbage", "unknown_cursor"],
      ["5-999", "unknown_cursor"],
    ] as const) {
      const got: DeliveredEvent[] = [];
      const off = hub.subscribe({ tickers: "*", calls: [] }, cursor, (e) => got.push(e));
      off();
      expect(got).toEqual([{ event: "reset", symbol: null, cursor: hub.headCursor(), data: { reason } }]);
    }
  });

  it("keeps a snapshot of each call: metadata, sentences so far, status", () => {
    const hub = new InMemoryHub();
    hub.publish(started(A, "AAA"));
    hub.publish(sentence(A, "AAA", 0));
    hub.publish(sentence(A, "AAA", 1));
    const snap = hub.snapshot(A.toUpperCase());
    expect(snap).toMatchObject({ callId: A, symbol: "AAA", status: "live", cursor: hub.headCursor() });
    expect(snap?.sentences.map((s) => s.sequence)).toEqual([0, 1]);
    hub.publish({ event: "call.status", symbol: "AAA", data: { callId: A, status: "completed" } });
    expect(hub.snapshot(A)?.status).toBe("completed");
    expect(hub.snapshot(B)).toBeNull();
  });

  it("evicts finished calls after their retention", () => {
    let now = 0;
    const hub = new InMemoryHub({ finishedRetentionMs: 1_000, now: () => now });
    hub.publish(started(A, "AAA"));
    hub.publish(started(B, "BBB"));
    hub.publish({ event: "call.status", symbol: "AAA", data: { callId: A, status: "enriched" } });
    now = 2_000;
    expect(hub.calls().map((c) => c.callId)).toEqual([B]);
  });

  it("unsubscribes, and one throwing subscriber does not stop the others", () => {
    const errors: unknown[] = [];
    const hub = new InMemoryHub({ onSubscriberError: (e) => errors.push(e) });
    const got: string[] = [];
    hub.subscribe({ tickers: "*", calls: [] }, null, () => {
      throw new Error("boom");
    });
    const off = hub.subscribe({ tickers: "*", calls: [] }, null, (e) => got.push(e.cursor));
    expect(hub.subscriberCount()).toBe(2);
    hub.publish(started(A, "AAA"));
    off();
    hub.publish(started(B, "BBB"));
    expect(got).toHaveLength(1);
    expect(errors).toHaveLength(2);
    expect(hub.subscriberCount()).toBe(1);
  });
});
