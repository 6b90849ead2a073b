/** A throwaway `redis-server` for tests: free port, no persistence, killed by `stop()`. */
import { spawn, type ChildProcess } from "node:child_process";
import { freePort } from "../support/free-port";

export interface TestRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export async function startTestRedis(): Promise<TestRedis> {
  for (let attempt = 0; ; attempt += 1) {
    const port = await freePort();
    const child: ChildProcess = spawn(
      process.env.REDIS_SERVER_BIN ?? "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    const ready = await new Promise<boolean>((resolve) => {
      let out = "";
      const timer = setTimeout(() => resolve(false), 10_000);
      child.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("Ready to accept connections")) {
          clearTimeout(timer);
          resolve(true);
        }
      });
      child.once("exit", () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
    if (!ready) {
      child.kill("SIGKILL");
      if (attempt < 3) continue;
      throw new Error("redis-server did not start");
    }
    return {
      url: `redis://127.0.0.1:${port}`,
      port,
      stop: () =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGKILL");
        }),
    };
  }
}
