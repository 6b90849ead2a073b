/**
 * A benchmark that runs as a child process: under tsx with the `react-server` condition (the server's modules import
 * `server-only`), asked for `--json`, its figures read from the last JSON line it prints. The database benchmarks run
 * this way (bench/library.ts, bench/search.ts, bench/scale-sim.ts) so their heaps and worker threads end with them.
 */
import { spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

export async function runChildBench<T>(
  script: string,
  name: string,
  options: { args?: readonly string[]; echo?: boolean } = {},
): Promise<T> {
  const child = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", script, ...(options.args ?? []), "--json"],
    { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
  );
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    if (options.echo) process.stdout.write(chunk);
  });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  const line = out
    .trim()
    .split("\n")
    .reverse()
    .find((l) => l.startsWith("{"));
  if (code !== 0 || !line) throw new Error(`${name} exited with ${code}`);
  return JSON.parse(line) as T;
}
