import { describe, expect, it } from "vitest";
import { Backoff } from "./backoff";

describe("Backoff (full jitter)", () => {
  it("draws each delay uniformly below a ceiling that doubles from base to cap", () => {
    const b = new Backoff({ baseMs: 1_000, capMs: 30_000, random: () => 0.999999 });
    const delays = Array.from({ length: 8 }, () => b.next());
    expect(delays).toEqual([999, 1999, 3999, 7999, 15999, 29999, 29999, 29999]);
  });

  it("never goes below zero nor above the ceiling, whatever the randomness", () => {
    const b = new Backoff({ baseMs: 1_000, capMs: 30_000 });
    for (let i = 0; i < 200; i += 1) {
      const ceiling = b.ceilingMs();
      const d = b.next();
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThan(ceiling);
      expect(ceiling).toBeLessThanOrEqual(30_000);
    }
  });

  it("uses the low end with random 0 (full jitter, not equal jitter)", () => {
    const b = new Backoff({ baseMs: 1_000, capMs: 30_000, random: () => 0 });
    expect([b.next(), b.next(), b.next()]).toEqual([0, 0, 0]);
  });

  it("starts over after reset", () => {
    const b = new Backoff({ baseMs: 1_000, capMs: 30_000, random: () => 0.5 });
    b.next();
    b.next();
    b.next();
    expect(b.ceilingMs()).toBe(8_000);
    b.reset();
    expect(b.attempts).toBe(0);
    expect(b.next()).toBe(500);
  });

  it("does not overflow after very many attempts", () => {
    const b = new Backoff({ baseMs: 1_000, capMs: 30_000, random: () => 0.5 });
    for (let i = 0; i < 2_000; i += 1) b.next();
    expect(b.next()).toBe(15_000);
  });
});
