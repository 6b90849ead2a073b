import { describe, expect, it } from "vitest";
import { DEFAULT_CACHE_LIMITS, readConfig } from "./config";

describe("readConfig", () => {
  it("derives the WebSocket URL from the base URL and applies defaults", () => {
    expect(
      readConfig({ UPSTREAM_BASE_URL: "https://api.example.com/", UPSTREAM_API_KEY: "k" }).upstream,
    ).toEqual({
      configured: true,
      baseUrl: "https://api.example.com",
      wsUrl: "wss://api.example.com",
      apiKey: "k",
      mode: "remote",
      timeoutMs: 8000,
      problem: null,
      backgroundRatePerSecond: 25,
      rateLimitPerSecond: 50,
    });
    expect(
      readConfig({
        UPSTREAM_BASE_URL: "http://127.0.0.1:4010",
        UPSTREAM_MODE: "embedded",
        UPSTREAM_TIMEOUT_MS: "500",
      }).upstream,
    ).toMatchObject({ wsUrl: "ws://127.0.0.1:4010", mode: "embedded", timeoutMs: 500 });
  });

  it("leaves the upstream unconfigured on unusable upstream variables, naming the variable, never its value", () => {
    const { upstream, secrets } = readConfig({
      UPSTREAM_BASE_URL: "ftp://secret-host",
      UPSTREAM_API_KEY: "key-1",
    });
    expect(upstream.baseUrl).toBeUndefined();
    expect(upstream.apiKey).toBeUndefined();
    expect(upstream.problem).toMatch(/UPSTREAM_BASE_URL/);
    expect(upstream.problem).not.toMatch(/secret-host/);
    // Set, though unusable: the launcher reports the problem rather than starting the embedded service instead.
    expect(upstream.configured).toBe(true);
    // Still the key: no log line may carry it.
    expect(secrets).toContain("key-1");
  });

  it("says whether UPSTREAM_BASE_URL is set (the launcher starts the embedded service when not), and the build folder", () => {
    expect(readConfig({}).upstream.configured).toBe(false);
    expect(readConfig({ UPSTREAM_BASE_URL: "  " }).upstream.configured).toBe(false);
    expect(readConfig({}).server.distDir).toBe(".next");
    expect(readConfig({ NEXT_DIST_DIR: ".next-bench" }).server.distDir).toBe(".next-bench");
  });

  it("fails loudly on a shared store it cannot use, naming the variable only", () => {
    expect(() => readConfig({ REDIS_URL: "http://cache" })).toThrow(/REDIS_URL/);
    expect(() => readConfig({ DATABASE_URL: "mysql://u:p@db" })).toThrow(/DATABASE_URL/);
    expect(() => readConfig({ DATABASE_URL: "mysql://u:p@db" })).not.toThrow(/u:p/);
  });

  it("knows the secrets no log line may carry", () => {
    const config = readConfig({
      UPSTREAM_BASE_URL: "http://a.test",
      UPSTREAM_API_KEY: "up-key",
      CALLROOM_SESSION_SECRET: "s".repeat(40),
      CALLROOM_METRICS_TOKEN: "m".repeat(20),
      CALLROOM_VAPID_PRIVATE_KEY: "v".repeat(43),
      DATABASE_URL: "postgres://user:pa%40ss@db:5432/callroom",
    });
    expect(config.secrets.sort()).toEqual(
      ["m".repeat(20), "pa@ss", "s".repeat(40), "up-key", "v".repeat(43)].sort(),
    );
  });

  it("reads the security settings, falling back to safe defaults", () => {
    const d = readConfig({}).security;
    expect(d).toMatchObject({
      sessionSecret: undefined,
      sessionSecretProblem: "missing",
      rateLimit: 20,
      ssePerClient: 6,
      trustProxyHops: 0,
      metricsToken: undefined,
      exposed: false,
    });
    expect(d.usersFile).toMatch(/data\/users$/);
    const s = readConfig({
      CALLROOM_SESSION_SECRET: "short",
      CALLROOM_RATE_LIMIT: "lots",
      CALLROOM_SSE_PER_CLIENT: "2",
      CALLROOM_TRUST_PROXY: "true",
      CALLROOM_METRICS_TOKEN: "too-short",
      HOST: "0.0.0.0",
    }).security;
    expect(s).toMatchObject({
      sessionSecret: undefined,
      sessionSecretProblem: "too_short",
      rateLimit: 20,
      ssePerClient: 2,
      trustProxyHops: 1,
      metricsToken: undefined,
      exposed: true,
    });
    expect(readConfig({ CALLROOM_TRUST_PROXY: "3" }).security.trustProxyHops).toBe(3);
    expect(readConfig({ HOST: "127.0.0.2" }).security.exposed).toBe(false);
  });

  it("bounds the response cache: 256 MB in all and 2 MB per answer by default, one answer never above the whole", () => {
    expect(readConfig({}).cache).toEqual({ maxBytes: 256 * 1024 * 1024, maxEntryBytes: 2 * 1024 * 1024 });
    expect(readConfig({ CALLROOM_CACHE_MAX_BYTES: " " }).cache).toEqual(DEFAULT_CACHE_LIMITS);
    expect(
      readConfig({ CALLROOM_CACHE_MAX_BYTES: "67108864", CALLROOM_CACHE_MAX_ENTRY_BYTES: "524288" }).cache,
    ).toEqual({ maxBytes: 67_108_864, maxEntryBytes: 524_288 });
    expect(readConfig({ CALLROOM_CACHE_MAX_BYTES: "1048576" }).cache.maxEntryBytes).toBe(1_048_576);
    expect(
      readConfig({ CALLROOM_CACHE_MAX_BYTES: "lots", CALLROOM_CACHE_MAX_ENTRY_BYTES: "-1" }).cache,
    ).toEqual(DEFAULT_CACHE_LIMITS);
  });

  it("reads the workspace's links and the bench hooks", () => {
    const config = readConfig({
      CALLROOM_PUBLIC_URL: "https://callroom.example/ ",
      CALLROOM_BENCH_HOOKS: "1",
      CALLROOM_BENCH_HOOK_PORT: "4999",
    });
    expect(config.workspace).toEqual({
      webhookAllowlist: undefined,
      pushAllowlist: undefined,
      notesPerUser: 5_000,
      vapid: { publicKey: undefined, privateKey: undefined },
      publicBaseUrl: "https://callroom.example",
      alertsContact: "mailto:alerts@callroom.invalid",
    });
    expect(readConfig({ CALLROOM_NOTES_PER_USER: "3" }).workspace.notesPerUser).toBe(3);
    expect(readConfig({ CALLROOM_NOTES_PER_USER: "-2" }).workspace.notesPerUser).toBe(5_000);
    expect(config.benchHooks).toEqual({ port: 4999 });
    expect(readConfig({}).benchHooks).toBeNull();
  });
});
