/** Real `next start` instances for the scale-out test: one build (reused while fresh), N servers on free ports. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../support/free-port";

export const root = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const nextBin = join(root, "node_modules/next/dist/bin/next");

function newestSourceMtime(): number {
  const inputs = [
    "app",
    "components",
    "lib",
    "server",
    "public",
    "instrumentation.ts",
    "proxy.ts",
    "next.config.ts",
  ];
  let newest = 0;
  const visit = (path: string) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) {
        if (entry === "node_modules" || entry.startsWith(".") || entry === "test") continue;
        visit(join(path, entry));
      }
    } else if (!/\.test\.tsx?$/.test(path)) newest = Math.max(newest, stat.mtimeMs);
  };
  for (const input of inputs) visit(join(root, input));
  return newest;
}

function isFresh(distDir: string): boolean {
  const buildId = join(root, distDir, "BUILD_ID");
  return existsSync(buildId) && statSync(buildId).mtimeMs >= newestSourceMtime();
}

/**
 * A production build to start: `.next-redis` or CI's `.next` when newer than the sources, else a new `.next-redis`.
 * `SCALE_TEST_DIST_DIR` forces a given build (local runs while others keep editing the tree).
 */
export function ensureBuild(): string {
  const forced = process.env.SCALE_TEST_DIST_DIR;
  if (forced && existsSync(join(root, forced, "BUILD_ID"))) return forced;
  for (const dir of [".next-redis", ".next"]) if (isFresh(dir)) return dir;
  const result = spawnSync(process.execPath, [nextBin, "build"], {
    cwd: root,
    stdio: "ignore",
    env: { ...process.env, NEXT_DIST_DIR: ".next-redis", NODE_ENV: "production" },
  });
  if (result.status !== 0) throw new Error("next build failed (NEXT_DIST_DIR=.next-redis)");
  return ".next-redis";
}

export interface NextInstance {
  url: string;
  child: ChildProcess;
  output: () => string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function startNext(distDir: string, env: Record<string, string>): Promise<NextInstance> {
  const port = await freePort();
  // Every instance a PGlite folder of its own: a second process on one folder is refused (one owner per folder).
  const dataDir = env.CALLROOM_DATA_DIR ?? mkdtempSync(join(tmpdir(), "callroom-scale-"));
  const ownDataDir = env.CALLROOM_DATA_DIR === undefined;
  // The same custom server `npm start` runs (scripts/serve.mjs: client address, the stream's door, then Next).
  const child = spawn(
    process.execPath,
    [join(root, "scripts/serve.mjs"), "start", "--host", "127.0.0.1", "--port", String(port)],
    {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: "production",
        NEXT_DIST_DIR: distDir,
        PORT: String(port),
        HOST: "127.0.0.1",
        CALLROOM_DATA_DIR: dataDir,
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (out += c.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited: ${out.slice(-2000)}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`next start did not answer: ${out.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    child,
    output: () => out,
    kill: (signal = "SIGKILL") =>
      new Promise<void>((done) => {
        const cleanUp = () => {
          if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
          done();
        };
        if (child.exitCode !== null || child.signalCode !== null) return cleanUp();
        child.once("exit", cleanUp);
        child.kill(signal);
      }),
  };
}
