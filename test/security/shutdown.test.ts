import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmbedded, type TestEmbedded } from "@/embedded/test/harness";
import { freePort } from "../support/free-port";
import { emptyUsersPath } from "./helpers";

/**
 * Shutdown with deliveries in flight (issue 27, item 8): SIGTERM to the server `npm start` runs (scripts/serve.mjs)
 * while a webhook delivery to a receiver that never answers is open. It must exit within 5 s with code 0 and PGlite
 * closed cleanly: its control file (global/pg_control) says "shut down". Before, the pending delivery kept the
 * runtime's stop waiting until a 3 s timer force-exited the process with the database still open.
 */

const root = resolve(import.meta.dirname, "../..");
const distDir = ".next-shutdown";
const nextBin = join(root, "node_modules/next/dist/bin/next");
/** pg_control's `state` (after the system identifier, the control and catalog versions); DB_SHUTDOWNED = 1. */
const STATE_OFFSET = 16;
const DB_SHUTDOWNED = 1;

function newestSource(): number {
  let newest = 0;
  const visit = (p: string) => {
    if (!existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const e of readdirSync(p))
        if (e !== "node_modules" && !e.startsWith(".") && e !== "test") visit(join(p, e));
    } else if (!/\.test\.tsx?$/.test(p)) newest = Math.max(newest, st.mtimeMs);
  };
  for (const i of ["app", "components", "lib", "server", "proxy.ts", "instrumentation.ts", "next.config.ts"])
    visit(join(root, i));
  return newest;
}

let embedded: TestEmbedded;
let server: ChildProcess | null = null;
let target: Server;
let targetPort = 0;
const open = new Set<Socket>();
let dataDir = "";
let output = "";
let base = "";

beforeAll(async () => {
  const buildId = join(root, distDir, "BUILD_ID");
  if (!existsSync(buildId) || statSync(buildId).mtimeMs < newestSource()) {
    const build = spawnSync(process.execPath, [nextBin, "build"], {
      cwd: root,
      env: { ...process.env, NODE_ENV: "production", NEXT_DIST_DIR: distDir },
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
  }
  embedded = await startTestEmbedded({ EMBEDDED_LIVE_CALLS: "3", EMBEDDED_CALL_MINUTES: "10" });
  // A webhook receiver that reads the request and never answers.
  target = createServer((req) => req.resume());
  target.on("connection", (socket) => {
    open.add(socket);
    socket.on("close", () => open.delete(socket));
  });
  await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
  targetPort = (target.address() as AddressInfo).port;
  dataDir = mkdtempSync(join(tmpdir(), "callroom-shutdown-"));
  const port = await freePort();
  base = `http://localhost:${port}`;
  server = spawn(
    process.execPath,
    [join(root, "scripts/serve.mjs"), "start", "--host", "127.0.0.1", "--port", String(port)],
    {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        NODE_ENV: "production",
        NEXT_DIST_DIR: distDir,
        UPSTREAM_BASE_URL: embedded.url,
        UPSTREAM_WS_URL: embedded.wsUrl,
        UPSTREAM_API_KEY: embedded.key,
        UPSTREAM_MODE: "embedded",
        CALLROOM_DATA_DIR: dataDir,
        CALLROOM_USERS_FILE: emptyUsersPath(),
        CALLROOM_RATE_LIMIT: "0",
        CALLROOM_WEBHOOK_ALLOWLIST: `127.0.0.1:${targetPort}`,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  server.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  server.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  for (let i = 0; i < 240; i += 1) {
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`server did not start:\n${output}`);
}, 900_000);

afterAll(async () => {
  if (server && server.exitCode === null && server.signalCode === null) server.kill("SIGKILL");
  target?.closeAllConnections();
  await new Promise((r) => target?.close(r));
  await embedded?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("SIGTERM with a webhook delivery in flight", () => {
  it("exits within 5 s with code 0, PGlite shut down cleanly", async () => {
    const created = await fetch(`${base}/api/alert-rules`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify({
        kind: "keyword",
        phrase: "the",
        webhookUrl: `http://127.0.0.1:${targetPort}/hook`,
      }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    // A live call says "the" within seconds; its delivery then hangs on the receiver.
    for (let i = 0; i < 240 && open.size === 0; i++) await new Promise((r) => setTimeout(r, 250));
    expect(open.size, `no delivery reached the receiver:\n${output}`).toBeGreaterThan(0);

    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
      server!.once("exit", (code, signal) => r({ code, signal })),
    );
    const started = Date.now();
    server!.kill("SIGTERM");
    const { code, signal } = await exited;
    const tookMs = Date.now() - started;
    expect(signal).toBeNull();
    expect(code).toBe(0);
    expect(tookMs, output).toBeLessThan(5_000);
    const control = readFileSync(join(dataDir, "global/pg_control"));
    expect(control.readUInt32LE(STATE_OFFSET), "pg_control says shut down").toBe(DB_SHUTDOWNED);
    for (let i = 0; i < 40 && open.size > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(open.size, "the delivery's socket was closed").toBe(0);
  }, 120_000);
});
