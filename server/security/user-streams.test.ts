import { afterEach, describe, expect, it, vi } from "vitest";
import { createUserStreams } from "./user-streams";

afterEach(() => vi.useRealTimers());

describe("user streams", () => {
  it("ends only the streams of users no longer active, each once", () => {
    const active = new Set(["ann", "bob"]);
    const revoked: [string, number][] = [];
    const streams = createUserStreams({
      isActive: (u) => active.has(u),
      onRevoked: (user, n) => revoked.push([user, n]),
    });
    const closed: string[] = [];
    const hold = (user: string, name: string) => {
      let release = () => {};
      // As serveUserSse does: closing the stream releases it.
      release = streams.hold(user, () => {
        closed.push(name);
        release();
      });
      return release;
    };
    hold("ann", "ann-1");
    hold("ann", "ann-2");
    hold("bob", "bob-1");
    expect(streams.sweep()).toBe(0);
    active.delete("ann");
    expect(streams.sweep()).toBe(2);
    expect(closed).toEqual(["ann-1", "ann-2"]);
    expect(revoked).toEqual([["ann", 2]]);
    expect(streams.size()).toBe(1);
    expect(streams.sweep()).toBe(0);
  });

  it("checks on a timer only while a stream is held", () => {
    vi.useFakeTimers();
    let checks = 0;
    const streams = createUserStreams({ isActive: () => (checks++, true), intervalMs: 1_000 });
    vi.advanceTimersByTime(5_000);
    expect(checks).toBe(0);
    const release = streams.hold("ann", () => {});
    vi.advanceTimersByTime(3_000);
    expect(checks).toBe(3);
    release();
    release();
    expect(streams.size()).toBe(0);
    vi.advanceTimersByTime(5_000);
    expect(checks).toBe(3);
  });
});
