/**
 * The storage suite runs every case against both drivers: PGlite (in memory or in a temporary folder) and a real
 * PostgreSQL server started for the run. `STORAGE_DRIVERS=pglite` skips the server (a machine without PostgreSQL).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { createDatabase, type Database } from "@/server/db/database";
import { startTestPostgres, type TestPostgres } from "./postgres-server";

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const quietLog = { info() {}, warn() {}, error() {}, debug() {} };

export interface DriverHarness {
  name: "pglite" | "postgres";
  setup(): Promise<void>;
  /**
   * A new, empty database with the schema applied. `again()` opens the same storage once more: on PostgreSQL a
   * second instance alongside the first; on PGlite (one process per folder) after the first was closed.
   */
  open(): Promise<Opened>;
  teardown(): Promise<void>;
}

export interface Opened {
  database: Database;
  again(): Promise<Database>;
}

export function drivers(): DriverHarness[] {
  const wanted = (process.env.STORAGE_DRIVERS ?? "pglite,postgres").split(",").map((s) => s.trim());
  const all: DriverHarness[] = [pgliteHarness(), postgresHarness()];
  return all.filter((d) => wanted.includes(d.name));
}

function pgliteHarness(): DriverHarness {
  const dirs: string[] = [];
  const opened: Database[] = [];
  return {
    name: "pglite",
    async setup() {},
    async open() {
      const dataDir = mkdtempSync(path.join(tmpdir(), "callroom-pglite-"));
      dirs.push(dataDir);
      const openOne = async () => {
        const db = await createDatabase({ dataDir, logger: quietLog });
        opened.push(db);
        return db;
      };
      return { database: await openOne(), again: openOne };
    },
    async teardown() {
      for (const db of opened) await db.close().catch(() => {});
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}

function postgresHarness(): DriverHarness {
  let server: TestPostgres | null = null;
  let n = 0;
  const opened: Database[] = [];
  return {
    name: "postgres",
    async setup() {
      server = await startTestPostgres();
    },
    async open() {
      if (!server) throw new Error("setup() first");
      // Every open gets its own database on the one server: cases never see each other's rows.
      const name = `callroom_test_${process.pid}_${(n += 1)}`;
      const admin = new pg.Client({ connectionString: server.url });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const url = server.url.replace(/\/postgres$/, `/${name}`);
      const openOne = async () => {
        const db = await createDatabase({ url, dataDir: "", logger: quietLog });
        opened.push(db);
        return db;
      };
      return { database: await openOne(), again: openOne };
    },
    async teardown() {
      // A failed case may leave a lock's connection checked out, which would keep pool.end() waiting for ever.
      for (const db of opened) await Promise.race([db.close().catch(() => {}), delay(2_000)]);
      await server?.stop();
    },
  };
}
