import { describe, expect, it } from "vitest";
import { CLOCK_FIRST_MS, CLOCK_LAST_MS } from "./clock";
import { ConfigError, DEFAULT_SEED, loadConfig } from "./config";

describe("loadConfig", () => {
  it("has the documented defaults", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 4010,
      host: "127.0.0.1",
      rateLimitPerSecond: 50,
      seed: DEFAULT_SEED,
      wire: "contract",
    });
    expect([...(config.apiKeys.get("demo") ?? [])].sort()).toEqual([
      "calendars",
      "fundamentals",
      "transcripts",
    ]);
    expect([...(config.apiKeys.get("demo-calendars") ?? [])].sort()).toEqual(["calendars", "fundamentals"]);
    expect(config.passThrough).toEqual({});
  });

  it("reads every variable and passes the live ones through", () => {
    const config = loadConfig({
      EMBEDDED_PORT: "0",
      EMBEDDED_HOST: "0.0.0.0",
      EMBEDDED_API_KEYS: "a:transcripts,b:calendars+fundamentals",
      EMBEDDED_RATE_LIMIT: "0",
      EMBEDDED_SEED: "7",
      EMBEDDED_LIVE_CALLS: "1",
      EMBEDDED_CALL_MINUTES: "0.5",
      EMBEDDED_WIRE: "documented",
    });
    expect(config).toMatchObject({
      port: 0,
      host: "0.0.0.0",
      rateLimitPerSecond: 0,
      seed: 7,
      wire: "documented",
    });
    expect([...(config.apiKeys.get("a") ?? [])]).toEqual(["transcripts"]);
    expect(config.apiKeys.has("demo")).toBe(false);
    expect(config.passThrough).toEqual({ EMBEDDED_LIVE_CALLS: "1", EMBEDDED_CALL_MINUTES: "0.5" });
  });

  it("reads EMBEDDED_NOW as an instant, in UTC or with an offset, within the universe's span", () => {
    expect(loadConfig({}).nowMs).toBeUndefined();
    expect(loadConfig({ EMBEDDED_NOW: "2026-11-27T15:00:00Z" }).nowMs).toBe(Date.UTC(2026, 10, 27, 15));
    expect(loadConfig({ EMBEDDED_NOW: "2028-02-29T10:00:00-05:00" }).nowMs).toBe(Date.UTC(2028, 1, 29, 15));
    expect(loadConfig({ EMBEDDED_NOW: "2022-01-01T00:00:00Z" }).nowMs).toBe(CLOCK_FIRST_MS);
    expect(loadConfig({ EMBEDDED_NOW: "2033-12-31T23:59:59.999Z" }).nowMs).toBe(CLOCK_LAST_MS);
  });

  it.each([
    [{ EMBEDDED_PORT: "65536" }, /EMBEDDED_PORT must be between 0 and 65535/],
    [{ EMBEDDED_PORT: "http" }, /EMBEDDED_PORT must be a whole number/],
    [{ EMBEDDED_RATE_LIMIT: "-1" }, /EMBEDDED_RATE_LIMIT/],
    [{ EMBEDDED_SEED: "1.5" }, /EMBEDDED_SEED/],
    [{ EMBEDDED_API_KEYS: "demo" }, /EMBEDDED_API_KEYS: "demo" is not key:products/],
    [{ EMBEDDED_API_KEYS: "demo:everything" }, /unknown product "everything"/],
    [{ EMBEDDED_API_KEYS: "a:all,a:calendars" }, /listed twice/],
    [{ EMBEDDED_API_KEYS: "a b:all" }, /no spaces/],
    [{ EMBEDDED_LIVE_CALLS: "three" }, /EMBEDDED_LIVE_CALLS/],
    [{ EMBEDDED_WIRE: "real" }, /EMBEDDED_WIRE must be one of contract, documented/],
    [{ EMBEDDED_TRANSCRIPTS_DIR: "/no/such/folder" }, /EMBEDDED_TRANSCRIPTS_DIR must be an existing folder/],
    [{ EMBEDDED_NOW: "2026-11-27" }, /EMBEDDED_NOW must be an ISO 8601 instant with its zone/],
    [{ EMBEDDED_NOW: "2026-11-27T15:00:00" }, /EMBEDDED_NOW must be an ISO 8601 instant with its zone/],
    [{ EMBEDDED_NOW: "yesterday" }, /EMBEDDED_NOW must be/],
    [
      { EMBEDDED_NOW: "2021-12-31T23:59:59Z" },
      /between 2022-01-01 and 2033-12-31.*the span the demo universe models/,
    ],
    [{ EMBEDDED_NOW: "2034-01-01T00:00:00Z" }, /between 2022-01-01 and 2033-12-31/],
  ])("refuses %o with a clear message", (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
