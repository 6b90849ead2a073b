import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { readConfig } from "../config";
import { createRuntime } from "./create-runtime";
import { clearUpstreamEnv, setUpstreamEnv } from "@/test/support/upstream-env";

afterEach(() => clearUpstreamEnv());

describe("the composition root", () => {
  it("is built from the configuration read once: later changes to the environment do not reach it", () => {
    const runtime = setUpstreamEnv({ UPSTREAM_BASE_URL: "http://a.test" });
    process.env.UPSTREAM_BASE_URL = "http://b.test";
    expect(runtime.config.upstream.baseUrl).toBe("http://a.test");
  });

  it("an invalid environment leaves the runtime unconfigured instead of failing every page", async () => {
    const runtime = createRuntime(readConfig({ UPSTREAM_BASE_URL: "ftp://x", UPSTREAM_API_KEY: "k" }));
    expect(runtime.config.upstream.baseUrl).toBeUndefined();
    await expect(runtime.upstream.http.get("/p", {}, z.unknown())).rejects.toMatchObject({
      status: 503,
      code: "upstream_not_configured",
    });
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

  it("counts browser streams only: the bus's other subscribers (metrics, archive, alerts) are not clients", async () => {
    const runtime = createRuntime(readConfig({}));
    const gauge = async () =>
      (await runtime.metrics.registry.getSingleMetric("callroom_sse_clients")!.get()).values[0]!.value;
    expect(await gauge()).toBe(0);
    const off = runtime.live.browsers.subscribe({ tickers: "*", calls: [] }, null, () => {});
    expect(await gauge()).toBe(1);
    off();
    expect(await gauge()).toBe(0);
  });
});
