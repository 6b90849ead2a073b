import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { NextRequest } from "next/server";
import { afterAll, describe, expect, it } from "vitest";
import { GET as metrics } from "@/app/api/metrics/route";
import { GET as stream, HEAD as streamHead } from "@/app/api/stream/route";
import { proxy } from "@/proxy";
import { readConfig } from "@/server/config";
import { createRuntime } from "@/server/runtime";
import { refreshRuntime } from "@/test/support/upstream-env";
import { clientAddress, normalizeAddress } from "@/server/security/client-address";
import { emptyUsersPath, SECRET, setSecurityEnv, writeUsersFile } from "./helpers";

afterAll(() => {
  setSecurityEnv({});
  refreshRuntime();
});

const apiRequest = (ip: string, path = "/api/calls") =>
  new NextRequest(`http://localhost:3000${path}`, { headers: { "x-forwarded-for": ip } });

describe("per-client rate limit on /api", () => {
  it("answers 429 {error:{code:'rate_limited'}} with Retry-After once the per-second and burst buckets are spent", async () => {
    setSecurityEnv({ CALLROOM_USERS_FILE: emptyUsersPath(), CALLROOM_RATE_LIMIT: "4" });
    const statuses: number[] = [];
    // 4 per second + a burst of 20 per 10 s: the 25th request in the same second is refused.
    for (let i = 0; i < 30; i += 1) statuses.push((await proxy(apiRequest("10.2.0.1"))).status);
    expect(statuses.slice(0, 24).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(24).every((s) => s === 429)).toBe(true);
    const refused = await proxy(apiRequest("10.2.0.1"));
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toEqual({ error: { code: "rate_limited", message: expect.any(String) } });
    // Another client is unaffected; pages and /api/health are not counted.
    expect((await proxy(apiRequest("10.2.0.2"))).status).toBe(200);
    expect((await proxy(apiRequest("10.2.0.1", "/api/health"))).status).toBe(200);
    expect(
      (
        await proxy(
          new NextRequest("http://localhost:3000/calls", { headers: { "x-forwarded-for": "10.2.0.1" } }),
        )
      ).status,
    ).toBe(200);
  });

  it("is off with CALLROOM_RATE_LIMIT=0", async () => {
    setSecurityEnv({ CALLROOM_USERS_FILE: emptyUsersPath(), CALLROOM_RATE_LIMIT: "0" });
    for (let i = 0; i < 200; i += 1) expect((await proxy(apiRequest("10.3.0.1"))).status).toBe(200);
  });

  it("applies before authentication, so password guessing is throttled too", async () => {
    setSecurityEnv({
      CALLROOM_USERS_FILE: await writeUsersFile({ alice: "correct horse battery" }),
      CALLROOM_SESSION_SECRET: SECRET,
      CALLROOM_RATE_LIMIT: "1",
    });
    const statuses = [];
    for (let i = 0; i < 8; i += 1)
      statuses.push((await proxy(apiRequest("10.4.0.1", "/api/session"))).status);
    expect(statuses).toContain(429);
  });
});

describe("client address", () => {
  it("takes X-Forwarded-For's right-most entry by default (the custom server sets it to the socket address) and the n-th from the right behind n trusted proxies", () => {
    const h = new Headers({ "x-forwarded-for": "6.6.6.6, 1.2.3.4, 10.0.0.2" });
    expect(clientAddress(h, 0)).toBe("10.0.0.2");
    expect(clientAddress(h, 2)).toBe("1.2.3.4");
    expect(normalizeAddress("::ffff:192.168.1.9")).toBe("192.168.1.9");
    expect(normalizeAddress("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(normalizeAddress("2001:db8::1")).toBe("2001:db8:0:0::/64");
  });

  it("every HTTP server of the process has a client-sent X-Forwarded-For replaced with the socket address, once", async () => {
    const seen = async (trust: string) => {
      // The runtime's exposure guard normalises the forwarding headers of every request (the custom server no
      // longer does it a second time).
      const runtime = createRuntime(readConfig({ CALLROOM_TRUST_PROXY: trust }));
      const uninstall = runtime.exposure.install();
      const server = createServer((req, res) =>
        res.end(JSON.stringify([req.headers["x-forwarded-for"], req.headers["x-forwarded-proto"] ?? null])),
      );
      try {
        await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
        const port = (server.address() as AddressInfo).port;
        const r = await fetch(`http://127.0.0.1:${port}`, {
          headers: { "x-forwarded-for": "127.0.0.9", "x-forwarded-proto": "https" },
        });
        return (await r.json()) as unknown;
      } finally {
        uninstall();
        server.close();
      }
    };
    expect(await seen("")).toEqual(["127.0.0.1", null]);
    expect(await seen("1")).toEqual(["127.0.0.9", "https"]);
  });

  it("sends HSTS only over HTTPS, and a client cannot claim HTTPS without a trusted proxy's header", async () => {
    setSecurityEnv({ CALLROOM_USERS_FILE: emptyUsersPath(), CALLROOM_RATE_LIMIT: "0" });
    const plain = await proxy(new NextRequest("http://localhost:3000/calls"));
    expect(plain.headers.get("strict-transport-security")).toBeNull();
    const https = await proxy(
      new NextRequest("http://localhost:3000/calls", { headers: { "x-forwarded-proto": "https" } }),
    );
    expect(https.headers.get("strict-transport-security")).toMatch(/^max-age=\d+/);
  });
});

describe("SSE connections per client", () => {
  it("HEAD on the route answers headers only and takes no slot (six HEADs do not lock a client out)", async () => {
    setSecurityEnv({ CALLROOM_USERS_FILE: emptyUsersPath(), CALLROOM_SSE_PER_CLIENT: "1" });
    const headers = { "x-callroom-client": "10.9.9.9" };
    for (let i = 0; i < 6; i += 1) {
      const head = await streamHead(
        new Request("http://localhost/api/stream?tickers=*", { method: "HEAD", headers }),
      );
      expect(head.status).toBe(200);
      expect(head.body).toBeNull();
    }
    const controller = new AbortController();
    const response = await stream(
      new Request("http://localhost/api/stream?tickers=*", { headers, signal: controller.signal }),
    );
    expect(response.status).toBe(200);
    controller.abort();
    await response.body?.cancel();
  });

  it("allows CALLROOM_SSE_PER_CLIENT open streams, then 429, and frees a slot when one closes", async () => {
    setSecurityEnv({ CALLROOM_USERS_FILE: emptyUsersPath(), CALLROOM_SSE_PER_CLIENT: "3" });
    const open = async (ip: string) => {
      const controller = new AbortController();
      const response = await stream(
        new Request("http://localhost/api/stream?tickers=*", {
          headers: { "x-callroom-client": ip },
          signal: controller.signal,
        }),
      );
      return { response, controller };
    };
    const streams = [await open("10.5.0.1"), await open("10.5.0.1"), await open("10.5.0.1")];
    expect(streams.map((s) => s.response.status)).toEqual([200, 200, 200]);
    const fourth = (await open("10.5.0.1")).response;
    expect(fourth.status).toBe(429);
    expect((await fourth.json()).error.code).toBe("too_many_streams");
    const other = await open("10.5.0.2");
    expect(other.response.status).toBe(200);
    other.controller.abort();
    streams[0]!.controller.abort();
    const again = await open("10.5.0.1");
    expect(again.response.status).toBe(200);
    for (const s of [...streams, again]) s.controller.abort();
  });
});

describe("/api/metrics", () => {
  it("answers Prometheus text with the live bus, cache, upstream and breaker series", async () => {
    const response = await metrics(new Request("http://localhost/api/metrics"));
    expect(response.headers.get("content-type")).toContain("text/plain");
    const text = await response.text();
    for (const name of [
      "callroom_sse_clients",
      "callroom_upstream_stream_state",
      "callroom_live_events_total",
      "callroom_relay_lag_seconds",
      "callroom_cache_requests",
      "callroom_answer_store_lookups",
      "callroom_answer_store_entries",
      "callroom_answer_store_bytes",
      "callroom_upstream_request_duration_seconds",
      "callroom_upstream_breaker_state",
      "callroom_rate_limited_total",
      "callroom_process_cpu_seconds_total",
    ]) {
      expect(text, name).toContain(`# TYPE ${name}`);
    }
    expect(text).toMatch(/^callroom_upstream_stream_state\{state="closed"\} 1$/m);
  });
});
