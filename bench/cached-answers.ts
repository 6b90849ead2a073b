/**
 * Cached answers (issue 13): a cached `GET /api/calendar/earnings?pageSize=100` (about 60 kB of JSON) from the app,
 * against a bare `node:http` server writing the same bytes, same connections, same run. Target: the app serves at
 * least 0.25 of the bare server's requests per second.
 *
 * Both servers are separate processes on loopback, loaded by the same closed loop (`connections` keep-alive
 * connections, each sending its next request when the previous answered, no Accept-Encoding so both write the
 * identical identity body). They run alternately, `rounds` times each for `seconds`, and the median of each is
 * compared. On a shared machine a process gets the CPU share the scheduler gives it, so the ratio per second of
 * each server's own CPU time is recorded beside the wall-clock one.
 *
 * For comparison, one round where every request is a new key (`uncached`: the market router runs the route each
 * time, its upstream copy already cached: the envelope and JSON of 60 kB per request, no Next in the path).
 *
 * The app's answers are checked for what the gate adds (request id, security headers), and one revalidation with
 * `If-None-Match` must answer 304.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunningApp } from "./lib/app";
import { loadAverage, log, percentile, round, sleep, withTimeout } from "./lib/common";

const PATH = "/api/calendar/earnings?pageSize=100";
const TARGET = 0.25;

interface Reply {
  status: number;
  ms: number;
  bytes: number;
}

function get(agent: Agent, url: URL, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request(url, { agent, method: "GET", headers }, (res) => {
      let bytes = 0;
      res.on("data", (c: Buffer) => (bytes += c.length));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0, bytes }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** utime + stime of a process, in clock ticks (100 per second), fields 14 and 15 of /proc/PID/stat. */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

interface LoadResult {
  requestsPerSec: number;
  requestsPerServerCpuSec: number;
  serverCpuPercent: number;
  p50Ms: number;
  p99Ms: number;
  statuses: Record<string, number>;
  bytesPerAnswer: number;
  loadAverage: [number, number, number];
}

async function closedLoop(
  url: URL | (() => URL),
  pid: number,
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let bytes = 0;
  const load = loadAverage();
  const cpu0 = cpuTicks(pid);
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const r = await get(agent, typeof url === "function" ? url() : url);
        latencies.push(r.ms);
        bytes += r.bytes;
        statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      }
    }),
  );
  const elapsedS = (performance.now() - t0) / 1000;
  const cpuS = (cpuTicks(pid) - cpu0) / 100;
  agent.destroy();
  return {
    requestsPerSec: Math.round(latencies.length / elapsedS),
    requestsPerServerCpuSec: Math.round(latencies.length / Math.max(0.01, cpuS)),
    serverCpuPercent: Math.round((cpuS / elapsedS) * 100),
    p50Ms: round(percentile(latencies, 50), 2),
    p99Ms: round(percentile(latencies, 99), 2),
    statuses,
    bytesPerAnswer: Math.round(bytes / Math.max(1, latencies.length)),
    loadAverage: load,
  };
}

/** The bare server: writes the app's own answer bytes with a Content-Type, nothing else. */
async function startBare(bodyFile: string): Promise<{ url: string; child: ChildProcess }> {
  const source = `
    const { createServer } = require("node:http");
    const body = require("node:fs").readFileSync(${JSON.stringify(bodyFile)});
    const server = createServer((req, res) => {
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": body.length });
      res.end(body);
    });
    server.keepAliveTimeout = 65000;
    server.listen(0, "127.0.0.1", () => console.log("bare listening on http://127.0.0.1:" + server.address().port));
  `;
  const child = spawn(process.execPath, ["-e", source], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    let text = "";
    child.stdout!.on("data", (c: Buffer) => {
      text += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(text);
      if (m) resolve(m[1]!);
    });
    child.once("exit", () => reject(new Error("the bare server exited")));
  });
  return { url, child };
}

const median = (values: number[]) => percentile(values, 50);

export async function runCachedAnswersBench(
  app: RunningApp,
  options = { connections: 32, seconds: 8, rounds: 3 },
) {
  return withTimeout(
    (async () => {
      const appUrl = new URL(PATH, app.url);
      // The first answer fills the response cache and the answer store (the embedded service, at the lowest CPU
      // priority on a loaded machine, may time out the first tries); the next must come from the store.
      let body: Buffer | null = null;
      for (let attempt = 0; attempt < 10 && !body; attempt++) {
        const first = await fetch(appUrl);
        const bytes = Buffer.from(await first.arrayBuffer());
        if (first.status === 200) body = bytes;
        else await sleep(2_000);
      }
      if (!body) throw new Error(`${PATH} never answered 200`);
      const cached = await fetch(appUrl);
      await cached.arrayBuffer();
      const etag = cached.headers.get("etag");
      if (cached.status !== 200 || !etag) throw new Error(`no cached answer: ${cached.status}, etag ${etag}`);
      const gate = {
        requestId: Boolean(cached.headers.get("x-request-id")),
        contentSecurityPolicy: Boolean(cached.headers.get("content-security-policy")),
        nosniff: cached.headers.get("x-content-type-options") === "nosniff",
        cacheControl: cached.headers.get("cache-control"),
      };
      const revalidated = await fetch(appUrl, { headers: { "if-none-match": etag } });
      await revalidated.arrayBuffer();
      // node:http, not fetch: fetch would decode the body and report its decoded length.
      const probe = new Agent({ keepAlive: false });
      const brBytes = (await get(probe, appUrl, { "accept-encoding": "br" })).bytes;
      const gzipBytes = (await get(probe, appUrl, { "accept-encoding": "gzip" })).bytes;

      const bodyFile = join(tmpdir(), `callroom-bench-body-${process.pid}.json`);
      writeFileSync(bodyFile, body);
      const bare = await startBare(bodyFile);
      try {
        const appPid = await app.serverPid();
        const bareUrl = new URL("/", bare.url);
        // Warm-up of both servers' code paths, then alternate measured rounds.
        await closedLoop(appUrl, appPid, options.connections, 2);
        await closedLoop(bareUrl, bare.child.pid!, options.connections, 2);
        const appRuns: LoadResult[] = [];
        const bareRuns: LoadResult[] = [];
        for (let round = 0; round < options.rounds; round++) {
          appRuns.push(await closedLoop(appUrl, appPid, options.connections, options.seconds));
          bareRuns.push(await closedLoop(bareUrl, bare.child.pid!, options.connections, options.seconds));
          log(
            `cachedAnswers round ${round + 1}: app ${appRuns.at(-1)!.requestsPerSec}/s, bare ${bareRuns.at(-1)!.requestsPerSec}/s`,
          );
          await sleep(500);
        }
        // For comparison, the same answer made for every request: a parameter the route ignores makes each request
        // a new key for the market router (the route runs on a response-cache hit, and its answer is stored).
        let n = 0;
        const uncached = await closedLoop(
          () => new URL(`${PATH}&_=${(n += 1)}`, app.url),
          appPid,
          options.connections,
          options.seconds,
        );
        log(`cachedAnswers uncached: ${uncached.requestsPerSec}/s`);
        const pick = (runs: LoadResult[]) =>
          runs.find((r) => r.requestsPerSec === median(runs.map((x) => x.requestsPerSec)))!;
        const appResult = pick(appRuns);
        const bareResult = pick(bareRuns);
        const ratio = round(appResult.requestsPerSec / bareResult.requestsPerSec, 3);
        const ratioPerServerCpu = round(
          median(appRuns.map((r) => r.requestsPerServerCpuSec)) /
            median(bareRuns.map((r) => r.requestsPerServerCpuSec)),
          3,
        );
        const result = {
          endpoint: PATH,
          bodyBytes: body.length,
          brotliBytes: brBytes,
          gzipBytes,
          connections: options.connections,
          seconds: options.seconds,
          rounds: options.rounds,
          app: appResult,
          bare: bareResult,
          uncached,
          ratioUncached: round(uncached.requestsPerSec / bareResult.requestsPerSec, 3),
          appRequestsPerSec: appRuns.map((r) => r.requestsPerSec),
          bareRequestsPerSec: bareRuns.map((r) => r.requestsPerSec),
          ratio,
          ratioPerServerCpu,
          revalidationStatus: revalidated.status,
          gate,
          target: TARGET,
          met: ratio >= TARGET && revalidated.status === 304,
          loadAverage: loadAverage(),
        };
        log(`cachedAnswers: ${JSON.stringify(result)}`);
        return result;
      } finally {
        bare.child.kill("SIGTERM");
      }
    })(),
    180_000,
    "the cached-answers benchmark",
  );
}
