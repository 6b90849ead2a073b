import { describe, expect, it } from "vitest";
import {
  STALE_RETRY_MS,
  envelopeMeta,
  isStaleEnvelope,
  refetchWhileStale,
  staleTimeUnlessStale,
} from "./stale";

const envelope = (stale: boolean) => ({ data: [], meta: { fetchedAt: "2026-01-05T14:02:00.000Z", stale } });

describe("stale envelopes", () => {
  it("reads meta from our envelope and nothing from other shapes", () => {
    expect(envelopeMeta(envelope(true))).toEqual({ fetchedAt: "2026-01-05T14:02:00.000Z", stale: true });
    expect(envelopeMeta(undefined)).toBeNull();
    expect(envelopeMeta({ data: 1 })).toBeNull();
    expect(envelopeMeta({ meta: { stale: "yes" } })).toBeNull();
    expect(isStaleEnvelope(envelope(false))).toBe(false);
    expect(isStaleEnvelope(envelope(true))).toBe(true);
  });

  it("polls only while the answer is stale, so the note clears when the upstream recovers", () => {
    expect(refetchWhileStale({ state: { data: envelope(true) } })).toBe(STALE_RETRY_MS);
    expect(refetchWhileStale({ state: { data: envelope(false) } })).toBe(false);
    expect(refetchWhileStale({ state: { data: undefined } })).toBe(false);
  });

  it("treats stale data as immediately refetchable (window focus retries) and good data as fresh", () => {
    const staleTime = staleTimeUnlessStale(600_000);
    expect(staleTime({ state: { data: envelope(true) } })).toBe(0);
    expect(staleTime({ state: { data: envelope(false) } })).toBe(600_000);
  });
});
