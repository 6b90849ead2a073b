/**
 * Start-up time of the embedded service as the launcher starts it (`node --max-old-space-size=512
 * --max-semi-space-size=8 --import tsx embedded/main.ts`):
 * from spawn to the "listening on" line, median of 5 runs, with the load average (a shared box inflates it).
 * Usage: `node --import tsx bench/embedded-startup.ts [runs]`.
 */
import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import path from "node:path";
import { EMBEDDED_ARGS } from "./lib/embedded-command";

const root = path.resolve(import.meta.dirname, "..");
const runs = Math.max(1, Number(process.argv[2] ?? 5) || 5);

function once(): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, EMBEDDED_ARGS, {
      cwd: root,
      env: { ...process.env, EMBEDDED_PORT: "0", EMBEDDED_HOST: "127.0.0.1" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error("no 'listening on' line within 30 s"));
    }, 30_000);
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes("listening on")) return;
      const ms = performance.now() - started;
      clearTimeout(timer);
      child.once("exit", () => resolve(ms));
      child.kill("SIGTERM");
    });
    child.once("error", reject);
  });
}

const times: number[] = [];
const loadBefore = loadavg();
for (let i = 0; i < runs; i++) times.push(await once());
const sorted = [...times].sort((a, b) => a - b);
const median = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
const fmt = (l: number[]) => l.map((x) => x.toFixed(2)).join(" ");
console.log(
  `embedded start-up: median ${median.toFixed(0)} ms over ${runs} runs (${times.map((t) => t.toFixed(0)).join(", ")} ms)`,
);
console.log(
  `load average before: ${fmt(loadBefore)}; after: ${fmt(loadavg())} (${(await import("node:os")).cpus().length} CPUs)`,
);
