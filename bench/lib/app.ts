/**
 * Starts Callroom in production mode for the benchmarks, exactly as `npm start` does (scripts/launch.mjs: the embedded
 * service as a child, then `next start`), on loopback, with the build in `.next-bench` (the launcher builds it when
 * missing or older than the sources).
 *
 * Bench-only settings, all loopback: the live bus's bench hook on (CALLROOM_BENCH_HOOKS=1, server/live/bench-hook.ts),
 * the per-client /api rate limit off and the per-address SSE cap at its maximum (the load comes from one machine),
 * the embedded service's rate limit off (it stands in for a remote service we would not load-test), and a second
 * embedded key `bench` so the latency benchmark can watch the upstream stream beside the app's own connection.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync, utimesSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, log, sleep } from "./common";

export const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
/** `BENCH_DIST_DIR` lets two people benchmark different trees' builds side by side. */
export const DIST_DIR = process.env.BENCH_DIST_DIR ?? ".next-bench";

export interface RunningApp {
  url: string;
  embeddedUrl: string;
  hookUrl: string;
  launcher: ChildProcess;
  /** `performance.now()` of the first 200 of `/api/health`. */
  healthyAt: number;
  /** The `next start` process (the one holding the hub and the sockets). */
  serverPid: () => Promise<number>;
  stop(): Promise<void>;
}

/**
 * The embedded service stands in for a remote market-data service, but here it shares the benchmark's two cores,
 * and its speech synthesis for the live calls is busy all the time. At the lowest CPU priority it still serves every
 * request and keeps its calls live, without taking CPU time from the app or the browser under measurement, which in
 * production it would not share a machine with.
 */
function deprioritizeEmbedded(launcherPid: number | undefined): void {
  if (!launcherPid) return;
  const children = spawnSync("pgrep", ["-P", String(launcherPid), "-f", "embedded/main.ts"], {
    encoding: "utf8",
  }).stdout.trim();
  for (const pid of children.split(/\s+/).filter(Boolean)) {
    // Threads have their own priority on Linux: every thread of the process (its speech worker too) is reniced.
    spawnSync("bash", [
      "-c",
      `for t in /proc/${pid}/task/*; do renice -n 19 -p "\${t##*/}" >/dev/null; done`,
    ]);
    log(`embedded service (pid ${pid}) at the lowest CPU priority`);
  }
}

/**
 * `reuseBuild`: benchmark the existing `.next-bench` build even when sources changed since (the launcher would
 * rebuild): for iterating on the benchmarks themselves while others edit the tree.
 */
export async function startApp(
  options: {
    reuseBuild?: boolean;
    env?: Record<string, string>;
    /** false: the embedded service keeps its normal priority (the fresh-start benchmark measures it as it runs). */
    deprioritizeEmbedded?: boolean;
  } = {},
): Promise<RunningApp> {
  const buildId = join(ROOT, DIST_DIR, "BUILD_ID");
  if (options.reuseBuild && existsSync(buildId)) {
    const now = new Date();
    utimesSync(buildId, now, now);
  }
  const port = await freePort();
  const logFile = join("/tmp", `callroom-bench-app-${process.pid}-${port}.log`);
  const fd = openSync(logFile, "w");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_DIST_DIR: DIST_DIR,
    PORT: String(port),
    HOST: "127.0.0.1",
    EMBEDDED_PORT: "0",
    EMBEDDED_RATE_LIMIT: "0",
    EMBEDDED_API_KEYS: "demo:all,bench:all",
    CALLROOM_BENCH_HOOKS: "1",
    CALLROOM_BENCH_HOOK_PORT: "0",
    CALLROOM_RATE_LIMIT: "0",
    CALLROOM_SSE_PER_CLIENT: "1000",
    CALLROOM_USERS_FILE: "/nonexistent/callroom-bench-users",
    NEXT_TELEMETRY_DISABLED: "1",
    // Lets the relay benchmark collect garbage before reading RSS (what connections retain, not what they churned).
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --expose-gc`.trim(),
    ...options.env,
  };
  delete env.UPSTREAM_BASE_URL;
  delete env.UPSTREAM_WS_URL;
  delete env.UPSTREAM_API_KEY;
  // The shell's hard limit bounds this; 10,000 SSE clients need more than the common default of 1,024.
  const launcher = spawn("bash", ["-c", 'ulimit -n "$(ulimit -Hn)"; exec node scripts/launch.mjs start'], {
    cwd: ROOT,
    env,
    stdio: ["ignore", fd, fd],
  });
  closeSync(fd);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15 * 60_000; // a cold build on a busy 2-core machine
  let embeddedUrl = "";
  let hookUrl = "";
  let healthyAt = NaN;
  for (;;) {
    if (launcher.exitCode !== null) throw new Error(`the app exited early; see ${logFile}`);
    if (Date.now() > deadline) throw new Error(`the app did not start; see ${logFile}`);
    const text = readFileSync(logFile, "utf8");
    embeddedUrl ||= /embedded market-data service at (http:\/\/\S+)/.exec(text)?.[1] ?? "";
    hookUrl ||= /bench hook listening on (http:\/\/\S+)/.exec(text)?.[1] ?? "";
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok && Number.isNaN(healthyAt)) healthyAt = performance.now();
    if (ok && embeddedUrl && hookUrl) break;
    await sleep(ok ? 100 : 250);
  }
  log(`app on ${url} (embedded ${embeddedUrl}, hook ${hookUrl}, log ${logFile})`);
  if (options.deprioritizeEmbedded !== false) deprioritizeEmbedded(launcher.pid);

  // The process holding the hub (next start's server), as its bench hook reports it.
  const serverPid = async (): Promise<number> =>
    ((await (await fetch(`${hookUrl}/stats`)).json()) as { pid: number }).pid;

  return {
    url,
    embeddedUrl,
    hookUrl,
    launcher,
    healthyAt,
    serverPid,
    async stop() {
      if (launcher.exitCode !== null) return;
      const exited = new Promise<void>((r) => launcher.once("exit", () => r()));
      launcher.kill("SIGTERM");
      await Promise.race([exited, sleep(8_000)]);
      if (launcher.exitCode === null) launcher.kill("SIGKILL");
    },
  };
}
