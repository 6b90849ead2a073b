/**
 * A throwaway PostgreSQL server for the storage suite: a fresh cluster in a temporary folder, on a free port,
 * removed by `stop()`. Debian's `postgresql` package provides the binaries (`.ci/run` installs it);
 * `POSTGRES_BIN_DIR` points elsewhere. Postgres refuses to run as root, so as root the cluster belongs to the
 * `postgres` system user.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../support/free-port";

export interface TestPostgres {
  url: string;
  port: number;
  stop(): Promise<void>;
}

function binDir(): string {
  if (process.env.POSTGRES_BIN_DIR) return process.env.POSTGRES_BIN_DIR;
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0]) throw new Error("PostgreSQL is not installed (apt-get install postgresql)");
  return path.join(root, versions[0], "bin");
}

function runAs(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
  if (id.status !== 0) throw new Error("running as root needs the 'postgres' system user");
  return { uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

export async function startTestPostgres(): Promise<TestPostgres> {
  const bin = binDir();
  const user = runAs();
  const dir = mkdtempSync(path.join(tmpdir(), "callroom-pg-"));
  if (user.uid !== undefined) chownSync(dir, user.uid, user.gid!);
  const dataDir = path.join(dir, "data");
  const init = spawnSync(
    path.join(bin, "initdb"),
    ["-D", dataDir, "-U", "callroom", "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"],
    { ...user, encoding: "utf8" },
  );
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);

  for (let attempt = 0; ; attempt += 1) {
    const port = await freePort();
    const child: ChildProcess = spawn(
      path.join(bin, "postgres"),
      ["-D", dataDir, "-p", String(port), "-k", dir, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"],
      { ...user, stdio: ["ignore", "pipe", "pipe"] },
    );
    const ready = await new Promise<boolean>((resolve) => {
      let out = "";
      const timer = setTimeout(() => resolve(false), 20_000);
      const onData = (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("ready to accept connections")) {
          clearTimeout(timer);
          resolve(true);
        }
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", onData);
      child.once("exit", () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
    if (!ready) {
      child.kill("SIGKILL");
      if (attempt < 3) continue;
      rmSync(dir, { recursive: true, force: true });
      throw new Error("postgres did not start");
    }
    return {
      url: `postgres://callroom@127.0.0.1:${port}/postgres`,
      port,
      stop: () =>
        new Promise<void>((resolve) => {
          const done = () => {
            rmSync(dir, { recursive: true, force: true });
            resolve();
          };
          if (child.exitCode !== null || child.signalCode !== null) return done();
          child.once("exit", done);
          // SIGINT = fast shutdown: open connections are closed, no checkpoint wait worth having in a test.
          child.kill("SIGINT");
        }),
    };
  }
}
