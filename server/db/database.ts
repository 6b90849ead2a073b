import "server-only";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { sql, type SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import type { Logger } from "pino";
import { claimFolder } from "./folder-owner.mjs";
import { startPgliteThread } from "./pglite-thread";

/**
 * The one database: PGlite (Postgres compiled to WebAssembly, in a worker thread of this process, files under
 * `dataDir`) by default, or a PostgreSQL server when `url` is set, which several app instances then share. Both get
 * the same schema through the same SQL migrations (drizzle/), applied here before anything else touches the
 * database, and the same Drizzle code above the driver (docs/storage.md).
 */

export type Db = PgDatabase<PgQueryResultHKT>;
export type DriverName = "pglite" | "postgres";

/** A session-level advisory lock held on its own connection; `lost` settles if that connection dies. */
export interface AdvisoryLease {
  release(): Promise<void>;
  readonly lost: Promise<void>;
}

export interface Database {
  db: Db;
  driver: DriverName;
  /**
   * PGlite only: the secret in the folder's lock (server/db/folder-owner.mjs) with which `npm run import` writes
   * through this process; null on PostgreSQL, where the import writes to the server itself.
   */
  importToken: string | null;
  /** Takes advisory lock `key` if nobody holds it (across every instance sharing the server), else `null`. */
  tryAdvisoryLock(key: number): Promise<AdvisoryLease | null>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** `postgres://…`; unset = PGlite under `dataDir`. */
  url?: string;
  /** PGlite's folder; `memory://` keeps it in memory (tests). */
  dataDir: string;
  logger: Pick<Logger, "info" | "warn" | "error">;
  migrationsFolder?: string;
  /** node-postgres pool size. */
  poolSize?: number;
  /** Who opens a PGlite folder, written into its lock for whoever is refused it ("server", "import"). */
  purpose?: string;
  /** The PGlite worker's script (default: server/db/pglite-worker.mjs under the working directory). */
  workerScript?: string;
}

/** Serialises migrations of instances starting together against one server (any constant unlikely to collide). */
const MIGRATION_LOCK_KEY = 727_160_001;

export function defaultMigrationsFolder(): string {
  return path.join(process.cwd(), "drizzle");
}

export async function createDatabase(options: DatabaseOptions): Promise<Database> {
  const migrationsFolder = options.migrationsFolder ?? defaultMigrationsFolder();
  return options.url
    ? createPostgres(options.url, migrationsFolder, options)
    : createPglite(options.dataDir, migrationsFolder, options);
}

async function createPglite(
  dataDir: string,
  migrationsFolder: string,
  options: DatabaseOptions,
): Promise<Database> {
  const inMemory = dataDir.startsWith("memory://");
  const folder = inMemory ? dataDir : path.resolve(dataDir);
  let owner: { release(): void; token: string } | null = null;
  if (!inMemory) {
    await mkdir(folder, { recursive: true });
    // Throws FolderInUseError (naming the folder and what to do) while another live process holds it.
    owner = claimFolder(folder, options.purpose ?? "server");
  }
  let client;
  try {
    client = await startPgliteThread(folder, options.workerScript);
  } catch (error) {
    owner?.release();
    throw error;
  }
  // Drizzle's PGlite driver over the worker's client: the same session code as over an in-process PGlite.
  const db = drizzlePglite({ client: client as never });
  try {
    const applied = async () =>
      (await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`))
        .rows[0]?.n ?? 0;
    const before = await applied().catch(() => 0);
    await migratePglite(db, { migrationsFolder });
    // PGlite runs no autovacuum: a migration that wrote rows (0007 counts every stored sentence's words) leaves
    // them without the visibility map that index-only reads of search need, until the next backfill's VACUUM.
    if (before > 0 && (await applied()) > before) await db.execute(sql`VACUUM (ANALYZE)`);
  } catch (error) {
    await client.close().catch(() => {});
    owner?.release();
    throw error;
  }
  let closed = false;
  void client.exited.then((code) => {
    if (!closed) options.logger.error({ code, dataDir: folder }, "database: the PGlite worker stopped");
  });
  options.logger.info({ driver: "pglite", dataDir: folder }, "database: ready (PGlite, in a worker thread)");
  // One process owns a PGlite folder, so the lock is this process's: a flag, not a Postgres lock (PGlite has one
  // connection, on which advisory locks would be re-entrant and never refuse).
  const held = new Set<number>();
  return {
    db: db as unknown as Db,
    driver: "pglite",
    importToken: owner?.token ?? null,
    async tryAdvisoryLock(key) {
      if (held.has(key)) return null;
      held.add(key);
      return { release: async () => void held.delete(key), lost: new Promise<void>(() => {}) };
    },
    async close() {
      if (closed) return;
      closed = true;
      await client.close();
      owner?.release();
    },
  };
}

async function createPostgres(
  url: string,
  migrationsFolder: string,
  options: DatabaseOptions,
): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
  // An idle client's error (the server restarted) must not crash the process: the pool replaces the client.
  pool.on("error", (error) => options.logger.warn({ err: error }, "database: idle connection failed"));
  try {
    const client = await pool.connect();
    try {
      await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
      await migratePg(drizzlePg({ client }), { migrationsFolder });
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
      client.release();
    }
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  options.logger.info({ driver: "postgres" }, "database: ready (PostgreSQL)");
  return {
    db: drizzlePg({ client: pool }) as unknown as Db,
    driver: "postgres",
    importToken: null,
    async tryAdvisoryLock(key) {
      const client = await pool.connect();
      let lostResolve!: () => void;
      const lost = new Promise<void>((resolve) => (lostResolve = resolve));
      const onError = () => lostResolve();
      try {
        const result = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1) AS ok", [key]);
        if (!result.rows[0]?.ok) {
          client.release();
          return null;
        }
      } catch (error) {
        client.release(true);
        throw error;
      }
      client.on("error", onError);
      client.on("end", onError);
      let released = false;
      return {
        lost,
        async release() {
          if (released) return;
          released = true;
          client.off("error", onError);
          client.off("end", onError);
          try {
            await client.query("SELECT pg_advisory_unlock($1)", [key]);
            client.release();
          } catch {
            // The connection is gone, and its lock with it; make sure the pool does not reuse it.
            client.release(true);
          }
        },
      };
    },
    close: () => pool.end(),
  };
}

/**
 * The database opened on first use and shared from then on: the runtime is built synchronously, while opening
 * PGlite and migrating take a few seconds, which must not delay serving the pages that do not need it.
 */
export interface DatabaseHandle {
  get(): Promise<Database>;
  /** The driver the configuration selects (known before opening). */
  readonly driver: DriverName;
  close(): Promise<void>;
}

export function lazyDatabase(options: DatabaseOptions): DatabaseHandle {
  let opening: Promise<Database> | null = null;
  return {
    driver: options.url ? "postgres" : "pglite",
    get() {
      opening ??= createDatabase(options).catch((error: unknown) => {
        // A later request may try again (the server may come up); log once per failed attempt.
        opening = null;
        options.logger.error({ err: error }, "database: could not open");
        throw error;
      });
      return opening;
    },
    async close() {
      const current = opening;
      opening = null;
      if (current) await (await current.catch(() => null))?.close();
    },
  };
}

/**
 * Rows of a raw SQL statement. Both drivers answer `{ rows }`, but Drizzle's common database type leaves the
 * result's shape open; this is the one place that says what it is.
 */
export async function queryRows<T extends Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
