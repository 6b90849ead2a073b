import "server-only";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Session } from "node:inspector";
import { writeFileSync } from "node:fs";
import { writeHeapSnapshot } from "node:v8";
import type { LiveBus } from "./bus";
import type { BrowserFanout } from "./fanout";

/**
 * Benchmark hook for `npm run bench` (bench/relay.ts): lets the relay benchmark (the live bus's) publish synthetic sentences straight
 * onto this process's live bus, so that it measures the fan-out (bus → browsers' fan-out → SSE encoding → sockets)
 * and nothing upstream.
 *
 * Started by the runtime only with `CALLROOM_BENCH_HOOKS=1`; then it listens on 127.0.0.1 only (port
 * `CALLROOM_BENCH_HOOK_PORT`, 0 = any) and prints `bench hook listening on http://127.0.0.1:PORT`. It is never
 * enabled in production deployments.
 *
 *   GET  /stats[?gc=1]                        → { pid, subscribers (browser streams), rssKb, heapUsedKb, externalKb }
 *   POST /heap-snapshot                       → { file } (a V8 heap snapshot in the OS temp directory)
 *   POST /cpu-profile?ms=                     → { file } (a CPU profile of the next `ms`, at most 30 s, same place)
 *   POST /publish?durationMs=&maxPerSecond=   → publishes sentences (one per event-loop turn, at most maxPerSecond)
 *                                               for durationMs, then answers { published, elapsedMs }
 *
 * Each sentence's text is `bench <sequence> <Date.now() at publish>`, so clients can measure delivery latency.
 */
export function startBenchHooks(live: { bus: LiveBus; browsers: BrowserFanout }, port: number): void {
  let sequence = 0;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method === "GET" && url.pathname === "/stats") {
      // With `?gc=1` and `--expose-gc`, a full collection first: RSS then shows what connections retain.
      if (url.searchParams.get("gc") === "1") (globalThis as { gc?: () => void }).gc?.();
      return reply(200, {
        pid: process.pid,
        subscribers: live.browsers.size(),
        rssKb: Math.round(process.memoryUsage.rss() / 1024),
        heapUsedKb: Math.round(process.memoryUsage().heapUsed / 1024),
        externalKb: Math.round(process.memoryUsage().external / 1024),
      });
    }
    if (req.method === "POST" && url.pathname === "/heap-snapshot") {
      // For finding what each connection retains; written under the OS temp directory only.
      const file = join(tmpdir(), `callroom-bench-${process.pid}-${Date.now()}.heapsnapshot`);
      return reply(200, { file: writeHeapSnapshot(file) });
    }
    if (req.method === "POST" && url.pathname === "/cpu-profile") {
      // Where the fan-out spends its time; open the file in Chrome DevTools or speedscope.
      const ms = Math.min(30_000, Math.max(100, Number(url.searchParams.get("ms")) || 5_000));
      const session = new Session();
      session.connect();
      session.post("Profiler.enable", () =>
        session.post("Profiler.start", () =>
          setTimeout(
            () =>
              session.post("Profiler.stop", (error, result) => {
                session.disconnect();
                if (error) return reply(500, { error: error.message });
                const file = join(tmpdir(), `callroom-bench-${process.pid}-${Date.now()}.cpuprofile`);
                writeFileSync(file, JSON.stringify(result.profile));
                reply(200, { file });
              }),
            ms,
          ),
        ),
      );
      return;
    }
    if (req.method === "POST" && url.pathname === "/publish") {
      const durationMs = Math.min(120_000, Math.max(1, Number(url.searchParams.get("durationMs")) || 10_000));
      const maxPerSecond = Math.max(1, Number(url.searchParams.get("maxPerSecond")) || 1_000);
      const started = performance.now();
      let published = 0;
      const tick = () => {
        const elapsed = performance.now() - started;
        if (elapsed >= durationMs) return reply(200, { published, elapsedMs: Math.round(elapsed) });
        if (published < (elapsed / 1000) * maxPerSecond) {
          sequence += 1;
          published += 1;
          live.bus.publish({
            event: "sentence",
            symbol: "BENCH",
            data: {
              callId: "bench-call",
              sequence,
              text: `bench ${sequence} ${Date.now()}`,
              speaker: "bench",
              startMs: sequence,
              endMs: sequence + 1,
              confidence: 1,
              sentiment: null,
            },
          });
          setImmediate(tick);
        } else {
          setTimeout(tick, 1);
        }
      };
      tick();
      return;
    }
    reply(404, { error: "not found" });
  });
  server.listen(port, "127.0.0.1", () => {
    const address = server.address();
    const actual = typeof address === "object" && address ? address.port : port;
    console.log(`bench hook listening on http://127.0.0.1:${actual}`);
  });
  server.unref();
}
