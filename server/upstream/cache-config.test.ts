import { describe, expect, it } from "vitest";
import { DEFAULT_CACHE_LIMITS, readCacheLimits } from "./cache-config";

describe("readCacheLimits", () => {
  it("defaults to 256 MB in all and 2 MB per answer", () => {
    expect(readCacheLimits({})).toEqual({ maxBytes: 256 * 1024 * 1024, maxEntryBytes: 2 * 1024 * 1024 });
    expect(readCacheLimits({ CALLROOM_CACHE_MAX_BYTES: " " })).toEqual(DEFAULT_CACHE_LIMITS);
  });

  it("reads both variables, and never lets one answer exceed the whole budget", () => {
    expect(
      readCacheLimits({ CALLROOM_CACHE_MAX_BYTES: "67108864", CALLROOM_CACHE_MAX_ENTRY_BYTES: "524288" }),
    ).toEqual({ maxBytes: 67_108_864, maxEntryBytes: 524_288 });
    expect(readCacheLimits({ CALLROOM_CACHE_MAX_BYTES: "1048576" }).maxEntryBytes).toBe(1_048_576);
  });

  it("falls back to the default on an unusable value instead of failing every request", () => {
    expect(
      readCacheLimits({ CALLROOM_CACHE_MAX_BYTES: "lots", CALLROOM_CACHE_MAX_ENTRY_BYTES: "-1" }),
    ).toEqual(DEFAULT_CACHE_LIMITS);
  });
});
