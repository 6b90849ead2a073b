/**
 * The relay benchmark's baseline: the barest SSE fan-out `node:http` offers, with the same event format, the same
 * publishing loop and the same control endpoints as the app's bench hook (server/live/bench-hook.ts), so the two are
 * compared on equal terms. Each event is encoded once and written to every open response.
 *
 *   node --import tsx bench/lib/baseline-sse-server.ts   → prints `baseline listening on http://127.0.0.1:PORT`
 *   GET /stream, GET /stats, POST /publish?durationMs=&maxPerSecond=
 */
import { createServer, type ServerResponse } from "node:http";

const clients = new Set<ServerResponse>();
let sequence = 0;

const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  if (req.method === "GET" && url.pathname === "/stream") {
    res.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache, no-transform",
      Connection: "keep-alive",
    });
    res.write("retry: 3000\n\n");
    clients.add(res);
    req.on("close", () => clients.delete(res));
    return;
  }
  const reply = (status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  if (req.method === "GET" && url.pathname === "/stats") {
    if (url.searchParams.get("gc") === "1") (globalThis as { gc?: () => void }).gc?.();
    return reply(200, {
      pid: process.pid,
      subscribers: clients.size,
      rssKb: Math.round(process.memoryUsage.rss() / 1024),
    });
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
        const data = {
          callId: "bench-call",
          sequence,
          text: `bench ${sequence} ${Date.now()}`,
          speaker: "bench",
          startMs: sequence,
          endMs: sequence + 1,
          confidence: 1,
          sentiment: null,
        };
        const text = `id: 0-${sequence}\nevent: sentence\ndata: ${JSON.stringify(data)}\n\n`;
        for (const client of clients) client.write(text);
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
server.keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  console.log(`baseline listening on http://127.0.0.1:${port}`);
});
process.on("SIGTERM", () => process.exit(0));
