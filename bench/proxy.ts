/**
 * REST proxy benchmarks against `GET /api/calendar/earnings` (route → server/upstream cache → embedded service).
 *
 * - coalescing: `concurrent` identical requests for a window nobody asked for yet (cold), all sent at once; the
 *   embedded service's own request counter says how many reached it (target: 1, single-flight).
 * - proxy: closed-loop load (`connections` keep-alive connections, each sending its next request when the previous
 *   answered) for `seconds`: `cached` repeats one URL (served from the response cache), `uncached` asks a different
 *   window every time (each one a miss and an upstream call).
 */
import { Agent, request } from "node:http";
import type { RunningApp } from "./lib/app";
import { getJson, loadAverage, log, percentile, round, withTimeout } from "./lib/common";

interface EmbeddedStats {
  restRequests: { total: number; byPath: Record<string, number> };
}

const EARNINGS = "/api/calendar/earnings";

function get(agent: Agent, url: URL): Promise<{ status: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request(url, { agent, method: "GET" }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0 }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** A day far from the demo data's "now" that no earlier run asked for: a cold cache key every run. */
function coldDay(offset: number): string {
  const base = Date.UTC(2000, 0, 1) + ((Date.now() / 1000) % 3_000) * 86_400_000;
  return new Date(base + offset * 86_400_000).toISOString().slice(0, 10);
}

async function upstreamEarningsCalls(app: RunningApp): Promise<number> {
  const stats = await getJson<EmbeddedStats>(`${app.embeddedUrl}/__embedded/stats`);
  return Object.entries(stats.restRequests.byPath)
    .filter(([path]) => path.includes("calendar/earnings"))
    .reduce((sum, [, n]) => sum + n, 0);
}

export async function runCoalescingBench(app: RunningApp, concurrent = 1_000) {
  return withTimeout(
    (async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: concurrent });
      const day = coldDay(0);
      const url = new URL(`${app.url}${EARNINGS}?from=${day}&to=${day}&pageSize=100`);
      const load = loadAverage();
      const before = await upstreamEarningsCalls(app);
      const t0 = performance.now();
      const answers = await Promise.all(Array.from({ length: concurrent }, () => get(agent, url)));
      const wallMs = performance.now() - t0;
      const after = await upstreamEarningsCalls(app);
      agent.destroy();
      const statuses: Record<string, number> = {};
      for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
      const result = {
        concurrent,
        upstreamCalls: after - before,
        statuses,
        wallMs: Math.round(wallMs),
        p50Ms: round(
          percentile(
            answers.map((a) => a.ms),
            50,
          ),
        ),
        p99Ms: round(
          percentile(
            answers.map((a) => a.ms),
            99,
          ),
        ),
        target: 1,
        met: after - before === 1,
        loadAverage: load,
      };
      log(`coalescing: ${JSON.stringify(result)}`);
      return result;
    })(),
    120_000,
    "the coalescing benchmark",
  );
}

async function closedLoop(nextUrl: () => URL, connections: number, seconds: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const load = loadAverage();
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const a = await get(agent, nextUrl());
        latencies.push(a.ms);
        statuses[a.status] = (statuses[a.status] ?? 0) + 1;
      }
    }),
  );
  const elapsedS = (performance.now() - t0) / 1000;
  agent.destroy();
  return {
    requests: latencies.length,
    requestsPerSec: Math.round(latencies.length / elapsedS),
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    statuses,
    connections,
    seconds,
    loadAverage: load,
  };
}

export async function runProxyBench(app: RunningApp, options = { connections: 32, seconds: 10 }) {
  return withTimeout(
    (async () => {
      const warm = new URL(`${app.url}${EARNINGS}?pageSize=100`);
      await fetch(warm).then((r) => r.text());
      // Warm-up of the route's code paths, then the measured runs.
      await closedLoop(() => warm, options.connections, 2);
      const cached = await closedLoop(() => warm, options.connections, options.seconds);
      log(`proxy cached: ${JSON.stringify(cached)}`);
      let n = 1_000;
      const uncached = await closedLoop(
        () => {
          n += 1;
          const from = coldDay(n % 2_500);
          return new URL(`${app.url}${EARNINGS}?from=${from}&to=${from}&pageSize=${1 + (n % 97)}`);
        },
        options.connections,
        options.seconds,
      );
      log(`proxy uncached: ${JSON.stringify(uncached)}`);
      return { endpoint: EARNINGS, cached, uncached };
    })(),
    120_000,
    "the proxy benchmark",
  );
}
