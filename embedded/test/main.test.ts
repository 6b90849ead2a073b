/** `main.ts` as the launcher runs it: one stdout line with the URL, clean exit on SIGTERM, exit 1 on bad config. */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const main = `${root}embedded/main.ts`;

function run(env: Record<string, string>) {
  // Spawned as the launcher spawns it: node itself with the tsx loader, so signals reach our handlers directly.
  const child = spawn(process.execPath, ["--import", "tsx", main], {
    cwd: root,
    env: { ...process.env, EMBEDDED_HOST: "127.0.0.1", EMBEDDED_PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

async function servesAndStops(proc: ReturnType<typeof run>) {
  while (!proc.stdout().includes("\n")) {
    if (proc.child.exitCode !== null) throw new Error(`exited early: ${proc.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const match = /^Embedded market-data service listening on (http:\/\/127\.0\.0\.1:(\d+))\n$/.exec(
    proc.stdout(),
  );
  expect(match, proc.stdout()).not.toBeNull();
  const answer = await fetch(`${match![1]}/api/v2.1/calendar/earnings?pagesize=1&token=demo`);
  expect(answer.status).toBe(200);
  proc.child.kill("SIGTERM");
  expect(await proc.exited).toBe(0);
  expect(
    proc
      .stdout()
      .split("\n")
      .filter((line) => line !== ""),
  ).toHaveLength(1);
}

describe("main.ts", () => {
  it(
    "prints exactly one 'listening on http://…' line, serves, and exits 0 on SIGTERM",
    { timeout: 60_000 },
    async () => {
      const proc = run({});
      try {
        await servesAndStops(proc);
      } finally {
        if (proc.child.exitCode === null) proc.child.kill("SIGTERM");
      }
    },
  );

  it("exits 1 with a clear message on bad configuration", { timeout: 60_000 }, async () => {
    const proc = run({ EMBEDDED_RATE_LIMIT: "fast" });
    expect(await proc.exited).toBe(1);
    expect(proc.stderr()).toContain("EMBEDDED_RATE_LIMIT must be a whole number");
    expect(proc.stdout()).toBe("");
  });
});
