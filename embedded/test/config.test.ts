import { describe, expect, it } from "vitest";
import { ConfigError, DEFAULT_SEED, loadConfig } from "../config";

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
  ])("refuses %o with a clear message", (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
