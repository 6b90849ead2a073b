import { afterEach, describe, expect, it } from "vitest";
import { getEnv, requireUpstream } from "./env";
import { clearUpstreamEnv, setUpstreamEnv } from "./upstream/test/env";

afterEach(() => clearUpstreamEnv());

describe("server env", () => {
  it("derives the WebSocket URL from the base URL and applies defaults", () => {
    setUpstreamEnv({ UPSTREAM_BASE_URL: "https://api.example.com/", UPSTREAM_API_KEY: "k" });
    expect(getEnv()).toEqual({
      upstreamBaseUrl: "https://api.example.com",
      upstreamWsUrl: "wss://api.example.com",
      upstreamApiKey: "k",
      upstreamMode: "remote",
      upstreamTimeoutMs: 8000,
    });
    setUpstreamEnv({
      UPSTREAM_BASE_URL: "http://127.0.0.1:4010",
      UPSTREAM_MODE: "embedded",
      UPSTREAM_TIMEOUT_MS: "500",
    });
    expect(getEnv()).toMatchObject({
      upstreamWsUrl: "ws://127.0.0.1:4010",
      upstreamMode: "embedded",
      upstreamTimeoutMs: 500,
    });
  });

  it("is read lazily and cached until reset", () => {
    setUpstreamEnv({ UPSTREAM_BASE_URL: "http://a.test" });
    expect(getEnv().upstreamBaseUrl).toBe("http://a.test");
    process.env.UPSTREAM_BASE_URL = "http://b.test";
    expect(getEnv().upstreamBaseUrl).toBe("http://a.test");
  });

  it("names the variable, never its value, when invalid", () => {
    setUpstreamEnv({ UPSTREAM_BASE_URL: "ftp://secret-host", UPSTREAM_API_KEY: "k" });
    expect(() => getEnv()).toThrow(/UPSTREAM_BASE_URL/);
    expect(() => getEnv()).not.toThrow(/secret-host/);
  });

  it("requireUpstream answers 503 upstream_not_configured without a base URL or key", () => {
    setUpstreamEnv({ UPSTREAM_API_KEY: "k" });
    expect(() => requireUpstream()).toThrow(
      expect.objectContaining({ status: 503, code: "upstream_not_configured" }),
    );
    setUpstreamEnv({ UPSTREAM_BASE_URL: "http://a.test" });
    expect(() => requireUpstream()).toThrow(expect.objectContaining({ status: 503 }));
  });
});
