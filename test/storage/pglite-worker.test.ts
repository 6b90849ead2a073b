/**
 * PGlite off the main thread and one process per folder (issue 26 items 1 and 2; docs/storage.md).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { createDatabase, queryRows, type Database } from "@/server/db/database";
import { LOCK_FILE } from "@/server/db/folder-owner.mjs";
import { quietLog } from "./drivers";

const ownerModule = path.resolve("server/db/folder-owner.mjs");
const dirs: string[] = [];
const opened: Database[] = [];

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "callroom-owner-"));
  dirs.push(dir);
  return dir;
}

async function open(dataDir: string): Promise<Database> {
  const db = await createDatabase({ dataDir, logger: quietLog });
  opened.push(db);
  return db;
}

/** Another process trying to claim `dir`: its exit code and what it printed. */
function claimFromAnotherProcess(dir: string): { status: number | null; stderr: string } {
  const script = `import(${JSON.stringify(ownerModule)}).then((m) => {
    try { m.claimFolder(${JSON.stringify(dir)}, "test"); } catch (e) { console.error(e.message); process.exit(3); }
  });`;
  const result = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" });
  return { status: result.status, stderr: result.stderr };
}

afterEach(async () => {
  for (const db of opened.splice(0)) await db.close().catch(() => {});
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("PGlite in a worker thread", { timeout: 120_000 }, () => {
  it("keeps the event loop turning while a statement runs", async () => {
    const db = await open("memory://");
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 10);
    const started = Date.now();
    await db.db.execute(sql`SELECT pg_sleep(0.6)`);
    const elapsed = Date.now() - started;
    clearInterval(timer);
    expect(elapsed).toBeGreaterThanOrEqual(550);
    // In the main thread the timer would not have fired once during the statement.
    expect(ticks).toBeGreaterThan(10);
  });

  it("runs transactions: a thrown callback rolls back, a returned one commits, others wait for them", async () => {
    const db = await open("memory://");
    await db.db.execute(sql`CREATE TABLE t (n int PRIMARY KEY)`);
    await expect(
      db.db.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO t VALUES (1)`);
        throw new Error("no");
      }),
    ).rejects.toThrow("no");
    const inside = db.db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO t VALUES (2)`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await tx.execute(sql`INSERT INTO t VALUES (3)`);
    });
    // Issued while the transaction is open: sees it committed whole, never half.
    const outside = queryRows<{ n: number }>(db.db, sql`SELECT n FROM t ORDER BY n`);
    await inside;
    expect((await outside).map((r) => r.n)).toEqual([2, 3]);
  });

  it("passes Postgres's error fields through (a unique violation keeps its code)", async () => {
    const db = await open("memory://");
    await db.db.execute(sql`CREATE TABLE u (n int PRIMARY KEY)`);
    await db.db.execute(sql`INSERT INTO u VALUES (1)`);
    const error = await db.db.execute(sql`INSERT INTO u VALUES (1)`).catch((e: unknown) => e);
    const cause = (error as { cause?: { code?: string } }).cause ?? (error as { code?: string });
    expect(cause.code).toBe("23505");
  });
});

describe("one process per PGlite folder", { timeout: 120_000 }, () => {
  it("refuses a second process while the first holds the folder, naming the folder; the first keeps its data", async () => {
    const dir = tempDir();
    const db = await open(dir);
    await db.db.execute(sql`CREATE TABLE kept (n int)`);
    await db.db.execute(sql`INSERT INTO kept VALUES (42)`);
    const second = claimFromAnotherProcess(dir);
    expect(second.status).toBe(3);
    expect(second.stderr).toContain(path.resolve(dir));
    expect(second.stderr).toContain(`process ${process.pid}`);
    expect(second.stderr).toMatch(/CALLROOM_DATA_DIR/);
    const rows = await queryRows<{ n: number }>(db.db, sql`SELECT n FROM kept`);
    expect(rows).toEqual([{ n: 42 }]);
  });

  it("stops a second npm start on a folder in use before it starts anything, non-zero, naming the folder", async () => {
    const dir = tempDir();
    const db = await open(dir);
    const launch = spawnSync(process.execPath, ["scripts/launch.mjs", "start"], {
      encoding: "utf8",
      // It reads the configuration (through tsx) and stops: seconds on a quiet machine, 30 s on a loaded one.
      timeout: 110_000,
      env: {
        ...process.env,
        CALLROOM_DATA_DIR: dir,
        DATABASE_URL: "",
        HOST: "127.0.0.1",
        PORT: "0",
        CALLROOM_USERS_FILE: path.join(dir, "no-users"),
      },
    });
    expect(launch.status).toBe(1);
    expect(launch.stdout).not.toContain("embedded market-data service");
    expect(launch.stderr).toContain(path.resolve(dir));
    expect(launch.stderr).toContain("refusing to start");
    // The first keeps serving.
    await expect(queryRows(db.db, sql`SELECT 1 AS one`)).resolves.toEqual([{ one: 1 }]);
  });

  it("refuses a second open in the same process too", async () => {
    const dir = tempDir();
    await open(dir);
    await expect(open(dir)).rejects.toMatchObject({ code: "FOLDER_IN_USE" });
  });

  it("takes over a folder left by a process that is gone, and frees it on close", async () => {
    const dir = tempDir();
    const gone = spawnSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" });
    const deadPid = Number(gone.stdout.trim());
    writeFileSync(
      path.join(dir, LOCK_FILE),
      JSON.stringify({
        pid: deadPid,
        host: hostname(),
        startedAt: new Date().toISOString(),
        procStart: null,
      }),
    );
    const db = await open(dir);
    expect(JSON.parse(readFileSync(path.join(dir, LOCK_FILE), "utf8")).pid).toBe(process.pid);
    await db.close();
    expect(claimFromAnotherProcess(dir).status).toBe(0);
  });

  it("reopens a folder whose process was killed mid-write, with every committed row", async () => {
    // A real crash: another process claims the folder as the app does, writes in a loop and is killed with SIGKILL
    // (no lock removed, no checkpoint, PGlite's files as the kill left them).
    const dir = tempDir();
    const script = `
      const { claimFolder } = await import(${JSON.stringify(ownerModule)});
      const { PGlite } = await import("@electric-sql/pglite");
      claimFolder(${JSON.stringify(dir)}, "crash-test");
      const db = new PGlite(${JSON.stringify(dir)});
      await db.exec("CREATE TABLE written (n int PRIMARY KEY, text text)");
      for (let n = 1; ; n += 1) {
        await db.query("INSERT INTO written VALUES ($1, repeat('x', 2000))", [n]);
        console.log(n);
      }`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let acknowledged = 0;
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (c: Buffer) => {
        const last = c.toString().trim().split("\n").at(-1);
        acknowledged = Math.max(acknowledged, Number(last));
        if (acknowledged >= 300) resolve();
      });
      child.once("exit", (code) => reject(new Error(`writer exited ${code}: ${stderr}`)));
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    expect(JSON.parse(readFileSync(path.join(dir, LOCK_FILE), "utf8")).purpose).toBe("crash-test");

    const db = await open(dir);
    const [row] = await queryRows<{ n: number; max: number }>(
      db.db,
      sql`SELECT count(*)::int AS n, max(n)::int AS max FROM written`,
    );
    expect(row!.n).toBe(row!.max);
    expect(row!.n).toBeGreaterThanOrEqual(acknowledged);
    // The app's own tables are there too: migrations ran on the reopened folder.
    await expect(queryRows(db.db, sql`SELECT count(*) FROM archive_calls`)).resolves.toHaveLength(1);
    expect(JSON.parse(readFileSync(path.join(dir, LOCK_FILE), "utf8")).pid).toBe(process.pid);
  });

  it("takes over a half-written lock", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, LOCK_FILE), '{"pid": 12');
    await open(dir);
    expect(claimFromAnotherProcess(dir).status).toBe(3);
  });
});
