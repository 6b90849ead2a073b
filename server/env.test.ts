import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { readServerEnv } from "./env";
import { createRuntime } from "./runtime";
import { clearUpstreamEnv, setUpstreamEnv } from "./upstream/test/env";

const getEnv = () => readServerEnv(process.env);

afterEach(() => clearUpstreamEnv());

describe("server env", () => {
  it("derives the WebSocket URL from the base URL and applies defaults", () => {
    setUpstreamEnv({ UPSTREAM_BASE_URL: "https://api.example.com/", UPSTREAM_API_KEY: "k" });
    expect(getEnv()).toMatchObject({
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

  it("is read once, when the runtime is built: later changes to the environment do not reach it", () => {
    const runtime = setUpstreamEnv({ UPSTREAM_BASE_URL: "http://a.test" });
    process.env.UPSTREAM_BASE_URL = "http://b.test";
    expect(runtime.env.upstreamBaseUrl).toBe("http://a.test");
  });

  it("an invalid environment leaves the runtime unconfigured instead of failing every page", async () => {
    const runtime = createRuntime({ UPSTREAM_BASE_URL: "ftp://x", UPSTREAM_API_KEY: "k" });
    expect(runtime.env.upstreamBaseUrl).toBeUndefined();
    await expect(runtime.upstream.http.get("/p", {}, z.unknown())).rejects.toMatchObject({
      status: 503,
      code: "upstream_not_configured",
    });
  });

  it("names the variable, never its value, when invalid", () => {
    setUpstreamEnv({ UPSTREAM_BASE_URL: "ftp://secret-host", UPSTREAM_API_KEY: "k" });
    expect(() => getEnv()).toThrow(/UPSTREAM_BASE_URL/);
    expect(() => getEnv()).not.toThrow(/secret-host/);
  });

  it("answers 503 upstream_not_configured without a base URL or key", async () => {
    for (const vars of [{ UPSTREAM_API_KEY: "k" }, { UPSTREAM_BASE_URL: "http://a.test" }]) {
      const runtime = setUpstreamEnv(vars);
      await expect(runtime.upstream.http.get("/p", {}, z.unknown())).rejects.toMatchObject({
        status: 503,
        code: "upstream_not_configured",
      });
    }
  });
});
