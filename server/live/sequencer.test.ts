import { describe, expect, it } from "vitest";
import { Sequencer, type RestCallView } from "./sequencer";
import type { SentenceFrame } from "../upstream/stream/frames";
import type { LivePayload } from "./bus";

const ID = "c".repeat(24);
const START = "2026-10-20T21:00:00.000Z";
const startEpoch = Date.parse(START);

const quietLog = { debug() {}, info() {}, warn() {}, error() {} };

function frame(sequence: number, isLast = false): SentenceFrame {
  return {
    callId: ID,
    symbol: "NWSC",
    name: "Northwind Semiconductor",
    sequence,
    text: `sentence ${sequence}`,
    speaker: "SPEAKER_1",
    startAt: startEpoch + sequence * 1000,
    endAt: startEpoch + sequence * 1000 + 900,
    confidence: 0.9,
    isLast,
  };
}

function view(status: RestCallView["status"], count: number, from = 0): RestCallView {
  return {
    callId: ID,
    symbol: "NWSC",
    name: "Northwind Semiconductor",
    startTime: START,
    status,
    segments: Array.from({ length: Math.max(0, count - from) }, (_, i) => ({
      sequence: from + i,
      speaker: "SPEAKER_1",
      startMs: (from + i) * 1000,
      endMs: (from + i) * 1000 + 900,
      text: `sentence ${from + i}`,
      confidence: 0.9,
    })),
  };
}

/** A REST double whose answers the test scripts: a function of the call number. */
function setup(answer: (n: number) => RestCallView | null | Error) {
  const events: LivePayload[] = [];
  let calls = 0;
  const machine = new Sequencer({
    publish: (p) => events.push(p),
    log: quietLog,
    fetcher: {
      fetchCall: async () => {
        calls += 1;
        await new Promise((r) => setTimeout(r, 1));
        const a = answer(calls);
        if (a instanceof Error) throw a;
        return a;
      },
    },
    syncBackoff: { baseMs: 5, capMs: 20 },
    gapGiveUpAttempts: 4,
    enrichPoll: { firstMs: 5, factor: 1, capMs: 5, maxAttempts: 20 },
  });
  const sequences = () =>
    events.filter((e) => e.event === "sentence").map((e) => (e.data as { sequence: number }).sequence);
  const statuses = () =>
    events.filter((e) => e.event === "call.status").map((e) => (e.data as { status: string }).status);
  return { machine, events, sequences, statuses, restCalls: () => calls };
}

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits for a condition rather than a fixed delay, so a loaded machine slows the test without failing it. */
async function until(test: () => boolean, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > end) throw new Error("timed out");
    await tick(5);
  }
}

describe("Sequencer", () => {
  it("announces a call seen from its start, then publishes its sentences in order", async () => {
    const t = setup(() => view("live", 0));
    t.machine.onAudio(ID, "NWSC");
    await until(() => t.events.length >= 2);
    t.machine.onSentence(frame(0));
    t.machine.onSentence(frame(1));
    expect(t.events.slice(0, 2).map((e) => e.event)).toEqual(["call.started", "call.status"]);
    expect(t.events[0]!.data).toEqual({
      callId: ID,
      symbol: "NWSC",
      name: "Northwind Semiconductor",
      startTime: START,
    });
    expect(t.sequences()).toEqual([0, 1]);
    expect(t.events.at(-1)!.data).toEqual({
      callId: ID,
      sequence: 1,
      text: "sentence 1",
      speaker: "SPEAKER_1",
      startMs: 1000,
      endMs: 1900,
      confidence: 0.9,
      sentiment: 0,
    });
    t.machine.dispose();
  });

  it("scores every published sentence with the live sentiment estimate, from the socket and from REST alike", async () => {
    const texts = [
      "Revenue grew 18% to a record $4.2 billion, well ahead of our guidance.",
      "Gross margin declined sharply on weak demand and an impairment charge.",
      "Our next question comes from the line of Dana Whitfield.",
    ];
    const restView = view("live", 1);
    restView.segments[0]!.text = texts[0]!;
    const t = setup(() => restView);
    // Seen mid-call: sentence 0 comes from REST, 1 and 2 from the socket.
    t.machine.onSentence({ ...frame(1), text: texts[1]! });
    t.machine.onSentence({ ...frame(2), text: texts[2]! });
    await until(() => t.sequences().length >= 3);
    const scores = t.events
      .filter((e) => e.event === "sentence")
      .map((e) => (e.data as { sentiment: number }).sentiment);
    expect(scores[0]).toBeGreaterThan(0.3);
    expect(scores[1]).toBeLessThan(-0.3);
    expect(scores[2]).toBe(0);
    t.machine.dispose();
  });

  it("holds sentences until the call is named and dated", async () => {
    const t = setup(() => view("live", 0));
    t.machine.onSentence(frame(0));
    expect(t.events).toEqual([]);
    await until(() => t.events.length >= 3);
    expect(t.events.map((e) => e.event)).toEqual(["call.started", "call.status", "sentence"]);
    t.machine.dispose();
  });

  it("fills what was said before a mid-call first sight from REST, without repeating", async () => {
    const t = setup(() => view("live", 6));
    t.machine.onSentence(frame(5));
    await until(() => t.sequences().length >= 6);
    t.machine.onSentence(frame(6));
    expect(t.sequences()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    t.machine.dispose();
  });

  it("reorders out-of-order sentences and drops duplicates", async () => {
    const t = setup(() => view("live", 0));
    t.machine.onAudio(ID, "NWSC");
    await until(() => t.events.length >= 2);
    for (const s of [0, 2, 0, 1, 2, 3, 1]) t.machine.onSentence(frame(s));
    expect(t.sequences()).toEqual([0, 1, 2, 3]);
    t.machine.dispose();
  });

  it("after a reconnect, publishes what was said meanwhile and nothing twice", async () => {
    let restCount = 0;
    const t = setup(() => view("live", restCount));
    t.machine.onAudio(ID, "NWSC");
    await until(() => t.events.length >= 2);
    for (let s = 0; s < 4; s += 1) t.machine.onSentence(frame(s));
    restCount = 8; // sentences 4..7 were spoken while the socket was down
    t.machine.onReconnected();
    t.machine.onSentence(frame(8));
    await until(() => t.sequences().length >= 9);
    t.machine.onSentence(frame(9));
    expect(t.sequences()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    t.machine.dispose();
  });

  it("retries while REST lags behind the socket, then fills the gap", async () => {
    const t = setup((n) => (n === 1 ? view("live", 0) : n < 4 ? view("live", 3) : view("live", 5)));
    t.machine.onAudio(ID, "NWSC");
    await until(() => t.events.length >= 2);
    t.machine.onSentence(frame(5));
    await until(() => t.sequences().length >= 6);
    expect(t.sequences()).toEqual([0, 1, 2, 3, 4, 5]);
    t.machine.dispose();
  });

  it("survives a failing REST read", async () => {
    const t = setup((n) => (n <= 2 ? new Error("503") : view("live", 3)));
    t.machine.onSentence(frame(2));
    await until(() => t.sequences().length >= 3);
    expect(t.sequences()).toEqual([0, 1, 2]);
    t.machine.dispose();
  });

  it("does not give up on missing sentences while REST is failing: once it recovers, every one is published once, in order", async () => {
    let restUp = true;
    let restHas = 0;
    let failures = 0;
    const t = setup(() => {
      if (restUp) return view("live", restHas);
      failures += 1;
      return new Error("503 upstream_unavailable"); // a 5xx, a timeout, or the breaker's instant refusal
    });
    t.machine.onAudio(ID, "NWSC");
    await until(() => t.events.length >= 2);
    t.machine.onSentence(frame(0));
    t.machine.onSentence(frame(1));
    restUp = false;
    // The socket loses 2 and 3 while REST is down, far longer than the give-up bound (4 reads) lasts.
    t.machine.onSentence(frame(4));
    t.machine.onSentence(frame(5));
    await until(() => failures >= 12);
    expect(t.sequences()).toEqual([0, 1]);
    restHas = 6;
    restUp = true;
    await until(() => t.sequences().length >= 6);
    t.machine.onSentence(frame(6));
    expect(t.sequences()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(t.machine.stats().skipped).toBe(0);
    t.machine.dispose();
  });

  it("keeps a live call through scattered 404s: only consecutive ones drop it", async () => {
    // 404s (null) between good reads: a call the upstream knows, answering unevenly (a load balancer's lagging node).
    const answers: (RestCallView | null)[] = [
      view("live", 1),
      null,
      view("live", 1),
      null,
      view("live", 1),
      null,
      view("live", 3),
    ];
    const t = setup((n) => answers[Math.min(n, answers.length) - 1]!);
    t.machine.onAudio(ID, "NWSC");
    await until(() => t.sequences().length >= 1);
    t.machine.onSentence(frame(2));
    await until(() => t.sequences().length >= 3);
    expect(t.sequences()).toEqual([0, 1, 2]);
    expect(t.machine.trackedCallIds()).toEqual([ID]);
    t.machine.dispose();
  });

  it("skips a gap that neither the socket nor REST can ever fill, after a bounded number of tries", async () => {
    const t = setup(() => view("live", 2));
    t.machine.onSentence(frame(4));
    await until(() => t.sequences().length >= 3);
    expect(t.sequences()).toEqual([0, 1, 4]);
    t.machine.dispose();
  });

  it("completes on the COMPLETE sentence, then polls until enriched", async () => {
    const t = setup((n) => (n === 1 ? view("live", 0) : n < 4 ? view("completed", 3) : view("enriched", 3)));
    t.machine.onSentence(frame(0));
    await until(() => t.events.length >= 3);
    t.machine.onSentence(frame(1));
    t.machine.onSentence(frame(2, true));
    expect(t.statuses()).toEqual(["live", "completed"]);
    await until(() => t.statuses().length >= 3);
    expect(t.statuses()).toEqual(["live", "completed", "enriched"]);
    expect(t.machine.trackedCallIds()).toEqual([]);
    // A late duplicate does not resurrect it.
    t.machine.onSentence(frame(2, true));
    expect(t.sequences()).toEqual([0, 1, 2]);
    t.machine.dispose();
  });

  it("learns from REST that a call ended while the socket was down", async () => {
    let answer = view("live", 2);
    const t = setup(() => answer);
    t.machine.onSentence(frame(0));
    await until(() => t.sequences().length >= 1);
    t.machine.onSentence(frame(1));
    answer = view("enriched", 5);
    t.machine.onLiveList([]);
    await until(() => t.statuses().length >= 3);
    expect(t.sequences()).toEqual([0, 1, 2, 3, 4]);
    expect(t.statuses()).toEqual(["live", "completed", "enriched"]);
    t.machine.dispose();
  });

  it("tracks calls from the live list with their name and start time", async () => {
    const t = setup(() => new Error("REST down"));
    t.machine.onLiveList([{ callId: ID, symbol: "NWSC", name: "Northwind Semiconductor", startTime: START }]);
    t.machine.onSentence(frame(0));
    expect(t.events.map((e) => e.event)).toEqual(["call.started", "call.status", "sentence"]);
    t.machine.dispose();
  });

  it("drops a call the upstream does not know", async () => {
    const t = setup(() => null);
    t.machine.onAudio(ID, "NWSC");
    await until(() => t.machine.trackedCallIds().length === 0);
    expect(t.restCalls()).toBe(3);
    expect(t.machine.trackedCallIds()).toEqual([]);
    expect(t.events).toEqual([]);
    t.machine.dispose();
  });

  it("after a reconnect, catches calls that started (and even ended) while the socket was down", async () => {
    const events: LivePayload[] = [];
    const asked: string[] = [];
    const machine = new Sequencer({
      publish: (p) => events.push(p),
      log: quietLog,
      fetcher: {
        fetchCall: async () => view("enriched", 3),
        listCallsStartedSince: async (fromIso, _signal, page = 1) => {
          asked.push(`${fromIso} page ${page}`);
          return page === 1 ? [{ callId: ID, symbol: "NWSC" }] : [];
        },
      },
    });
    const downSince = Date.parse("2026-10-20T21:00:30.000Z");
    machine.onReconnected(downSince);
    await until(() => events.length >= 7);
    expect(asked).toEqual(["2026-10-20T20:59:30.000Z page 1", "2026-10-20T20:59:30.000Z page 2"]);
    expect(events.map((e) => e.event)).toEqual([
      "call.started",
      "call.status",
      "sentence",
      "sentence",
      "sentence",
      "call.status",
      "call.status",
    ]);
    expect(
      events.filter((e) => e.event === "call.status").map((e) => (e.data as { status: string }).status),
    ).toEqual(["live", "completed", "enriched"]);
    // Once finished, a second catch-up does not replay it.
    machine.onReconnected(downSince);
    await tick(50);
    expect(events).toHaveLength(7);
    machine.dispose();
  });
  describe("catch-up after a reconnect", () => {
    /** `total` calls started while away, listed newest first, `pageSize` a page, as the upstream pages them. */
    function lister(total: number, pageSize: number) {
      const ids = Array.from({ length: total }, (_, i) => i.toString(16).padStart(24, "0"));
      const pagesAsked: number[] = [];
      return {
        ids,
        pagesAsked,
        listCallsStartedSince: async (_fromIso: string, _signal: AbortSignal, page = 1) => {
          pagesAsked.push(page);
          return ids
            .slice((page - 1) * pageSize, page * pageSize)
            .map((callId) => ({ callId, symbol: "NWSC" }));
        },
      };
    }

    function machineWith(list: ReturnType<typeof lister>, options: { catchUpMaxPages?: number } = {}) {
      const warnings: string[] = [];
      const machine = new Sequencer({
        publish: () => {},
        log: { ...quietLog, warn: (_obj: object, msg: string) => warnings.push(msg) },
        // Calls of the catch-up stay tracked (live, nothing said yet) so the test can count them.
        fetcher: {
          fetchCall: async () => view("live", 0),
          listCallsStartedSince: list.listCallsStartedSince,
        },
        ...options,
      });
      return { machine, warnings };
    }

    it("pages through every call that started while the socket was down, not only the first page", async () => {
      const list = lister(250, 100);
      const { machine, warnings } = machineWith(list);
      machine.onReconnected(Date.now() - 60_000);
      await until(() => machine.trackedCallIds().length === 250);
      expect(new Set(machine.trackedCallIds())).toEqual(new Set(list.ids));
      expect(list.pagesAsked).toEqual([1, 2, 3, 4]); // the fourth, empty, says there is no more
      expect(warnings).toEqual([]);
      machine.dispose();
    });

    it("stops at its page bound and says so in the log", async () => {
      const list = lister(1_000, 100);
      const { machine, warnings } = machineWith(list, { catchUpMaxPages: 3 });
      machine.onReconnected(Date.now() - 60_000);
      await until(() => warnings.length > 0);
      await tick(20);
      expect(list.pagesAsked).toEqual([1, 2, 3]);
      expect(machine.trackedCallIds()).toHaveLength(300);
      expect(warnings).toEqual([expect.stringMatching(/catch-up.*bound/)]);
      machine.dispose();
    });

    it("stops when a page brings nothing new (an upstream that ignores the page number)", async () => {
      const ids = ["a".repeat(24), "b".repeat(24)];
      const pagesAsked: number[] = [];
      const { machine } = machineWith({
        ids,
        pagesAsked,
        listCallsStartedSince: async (_f: string, _s: AbortSignal, page = 1) => {
          pagesAsked.push(page);
          return ids.map((callId) => ({ callId, symbol: "NWSC" }));
        },
      });
      machine.onReconnected(Date.now() - 60_000);
      await until(() => pagesAsked.length >= 2);
      await tick(20);
      expect(pagesAsked).toEqual([1, 2]);
      expect(machine.trackedCallIds().sort()).toEqual(ids);
      machine.dispose();
    });
  });
});
