import { afterEach, describe, expect, it, vi } from "vitest";
import { openLiveStream, streamUrl, type StreamState } from "./live-stream";

class FakeEventSource {
  static instances: FakeEventSource[] = [];
  readyState = 0;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  listeners = new Map<string, (e: Event) => void>();
  isClosed = false;
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(name: string, fn: (e: Event) => void) {
    this.listeners.set(name, fn);
  }
  close() {
    this.isClosed = true;
    this.readyState = 2;
  }
  emit(name: string, id: string, data: unknown) {
    const event = Object.assign(new Event(name), { lastEventId: id, data: JSON.stringify(data) });
    this.listeners.get(name)?.(event);
  }
}

afterEach(() => {
  FakeEventSource.instances = [];
  vi.useRealTimers();
});

function open(cursor: string | null = "c0") {
  const messages: unknown[] = [];
  const states: StreamState[] = [];
  const close = openLiveStream({
    target: { calls: ["aaaaaaaaaaaaaaaaaaaaaaaa"] },
    cursor,
    onMessage: (m) => messages.push(m),
    onState: (s) => states.push(s),
    createEventSource: (url) => new FakeEventSource(url) as unknown as EventSource,
    backoffMs: () => 1000,
  });
  return { messages, states, close, es: () => FakeEventSource.instances.at(-1)! };
}

describe("streamUrl", () => {
  it("builds the stream URL with the target and the resume cursor", () => {
    expect(streamUrl({ tickers: "*" }, null)).toBe("/api/stream?tickers=*");
    expect(streamUrl({ calls: ["a", "b"] }, "17-2")).toBe("/api/stream?calls=a%2Cb&cursor=17-2");
  });
});

describe("openLiveStream", () => {
  it("starts from the snapshot's cursor and hands over parsed events, dropping malformed ones", () => {
    const { messages, es } = open("c5");
    expect(es().url).toContain("cursor=c5");
    es().emit("call.status", "c6", { callId: "aaaaaaaaaaaaaaaaaaaaaaaa", status: "completed" });
    es().emit("call.status", "c7", { callId: "aaaaaaaaaaaaaaaaaaaaaaaa", status: "exploded" });
    expect(messages).toEqual([
      { event: "call.status", id: "c6", data: { callId: "aaaaaaaaaaaaaaaaaaaaaaaa", status: "completed" } },
    ]);
  });

  it("reports reconnecting while the browser retries, and open when it is back", () => {
    const { states, es } = open();
    es().onopen?.();
    es().readyState = 0;
    es().onerror?.();
    es().onopen?.();
    expect(states).toEqual(["connecting", "open", "reconnecting", "open"]);
    expect(FakeEventSource.instances).toHaveLength(1);
  });

  it("reopens a stream the browser gave up on, resuming after the last event seen", () => {
    vi.useFakeTimers();
    const { es } = open("c0");
    const first = es();
    first.emit("call.status", "c9", { callId: "aaaaaaaaaaaaaaaaaaaaaaaa", status: "completed" });
    first.readyState = 2;
    first.onerror?.();
    expect(FakeEventSource.instances).toHaveLength(1);
    vi.advanceTimersByTime(1000);
    expect(FakeEventSource.instances).toHaveLength(2);
    expect(es().url).toContain("cursor=c9");
  });

  it("closes the EventSource and cancels a pending reopen when closed", () => {
    vi.useFakeTimers();
    const { es, close } = open();
    const first = es();
    first.readyState = 2;
    first.onerror?.();
    close();
    vi.advanceTimersByTime(5000);
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(first.isClosed).toBe(true);
  });
});
