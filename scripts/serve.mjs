#!/usr/bin/env node
// Callroom's HTTP server: Next's request handler behind a plain `node:http` server (a custom server, which Next
// supports), started by scripts/launch.mjs as `node scripts/serve.mjs start|dev --host HOST --port PORT` (the address
// the launcher read with server/config.ts; this file reads no environment variable: docs/architecture.md
// "Configuration"). Before Next, each request is offered
// to the runtime's door (server/http/door.ts: the live stream, server/live/stream-door.ts, and the market-data routes,
// server/http/market-door.ts), which answers it whole or leaves it to Next: the runtime, built by instrumentation.ts inside Next while it prepares, sits in the
// process's one `globalThis` slot (server/process-slot.ts). The client's address was settled before this handler
// runs, for every HTTP server of the process, by the runtime's exposure guard (server/security/exposure-guard.ts).
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import next from "next";

const usage = "usage: node scripts/serve.mjs start|dev --host HOST --port PORT";
let args;
try {
  args = parseArgs({
    allowPositionals: true,
    options: { host: { type: "string" }, port: { type: "string" } },
  });
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
  process.exit(2);
}
const mode = args.positionals[0];
const host = args.values.host;
const port = Number(args.values.port);
if ((mode !== "start" && mode !== "dev") || !host || !Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(usage);
  process.exit(2);
}
const PROCESS = Symbol.for("callroom.process");

const app = next({ dev: mode === "dev", dir: process.cwd(), hostname: host, port });
const handle = app.getRequestHandler();
await app.prepare();

const server = createServer((req, res) => {
  // Refused by the exposure guard: a 403 is on its way and the socket is closing.
  if (req.socket.writableEnded || req.socket.destroyed) return;
  const door = globalThis[PROCESS]?.runtime?.door;
  if (typeof door === "function" && door(req, res)) return;
  void handle(req, res);
});
// Next's own server keeps idle sockets this long; so do we (load balancers expect more than Node's 5 s default).
server.keepAliveTimeout = 65_000;
server.listen(port, host, () => {
  console.log(`[callroom] Next ${mode === "dev" ? "dev " : ""}server listening on http://${host}:${port}`);
});

// SIGTERM or SIGINT: exit 0 within 5 s (a supervisor's usual grace), the database closed. The runtime's stop cuts
// alert deliveries in flight, gives the archive and the workspace 2.5 s and then closes the database (PGlite writes
// its files out and its control file says it was shut down) whatever they do; the last resort below fires only if
// even that hangs.
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    server.close();
    // Open streams and idle keep-alive sockets would keep close() waiting; nothing is answered any more.
    server.closeAllConnections();
    const runtime = globalThis[PROCESS]?.runtime;
    void Promise.resolve(typeof runtime?.stop === "function" ? runtime.stop() : undefined)
      .catch(() => {})
      .then(() => app.close?.())
      .finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 4_500).unref();
  });
}
