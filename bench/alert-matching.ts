/**
 * Alert rule matching (issue 17): bench/alerts.ts in a child process, since the server's modules only load under the
 * `react-server` condition. It measures, with 1,000 users × 10 rules loaded, the engine's sentences per second on
 * one core (target ≥ 10,000), the phrase index against the every-rule baseline of bench/lib/naive-phrase-matcher.ts
 * in the same run, and the server's part of sentence → toast (hub publish → the user's alert bus).
 */
import { spawn } from "node:child_process";
import { ROOT } from "./lib/app";
import { loadAverage, withTimeout } from "./lib/common";

export async function runAlertMatchingBench(): Promise<Record<string, unknown>> {
  const load = loadAverage();
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", "bench/alerts.ts"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  const code = await withTimeout(
    new Promise<number | null>((resolve, reject) => {
      child.once("error", reject);
      child.once("exit", resolve);
    }),
    5 * 60_000,
    "the alert-matching benchmark",
  ).finally(() => child.kill());
  if (code !== 0) throw new Error(`bench/alerts.ts exited with ${code}`);
  const last = stdout.trim().split("\n").at(-1) ?? "";
  return { ...(JSON.parse(last) as Record<string, unknown>), loadAverage: load };
}
