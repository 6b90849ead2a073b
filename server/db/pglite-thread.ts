import "server-only";
import path from "node:path";
import { Worker } from "node:worker_threads";

/**
 * The main thread's side of PGlite in a worker (server/db/pglite-worker.mjs; docs/storage.md): the part of PGlite's
 * client interface that Drizzle's PGlite driver calls (`query`, `exec`, `transaction`), each a message to the
 * worker. Statements run on the worker's thread, so the event loop serving streams and answers only ever waits for
 * a message, never for Postgres.
 */

interface QueryResult {
  rows: unknown[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}

interface QueryOptions {
  rowMode?: "array" | "object";
}

/** What Drizzle's PGlite session uses of a connection, inside a transaction or not. */
export interface PgliteConnection {
  query(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult>;
  exec(sql: string): Promise<QueryResult[]>;
}

export interface PgliteThread extends PgliteConnection {
  transaction<T>(callback: (tx: PgliteConnection) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** Settles when the worker stops for any reason (a crash included). */
  readonly exited: Promise<number>;
}

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

/** An error from the worker, with Postgres's fields (code, detail, constraint…) as PGlite gave them. */
export class PgliteError extends Error {
  code?: string;
  constructor(fields: Record<string, unknown>) {
    super(typeof fields.message === "string" ? fields.message : "database error");
    Object.assign(this, fields);
    this.name = "PgliteError";
  }
}

export function defaultWorkerScript(): string {
  // Started by path at run time, outside the bundle: the ignore comments keep Turbopack from tracing the whole
  // project as the worker's possible entry.
  return path.join(/*turbopackIgnore: true*/ process.cwd(), "server/db/pglite-worker.mjs");
}

/** Starts the worker and opens PGlite there (`dataDir` a folder, or `memory://…`). */
export async function startPgliteThread(
  dataDir: string,
  workerScript = defaultWorkerScript(),
): Promise<PgliteThread> {
  const worker = new Worker(/*turbopackIgnore: true*/ workerScript, { workerData: { dataDir } });
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let gone: Error | null = null;

  const exited = new Promise<number>((resolve) => {
    const stop = (error: Error) => {
      gone ??= error;
      for (const p of pending.values()) p.reject(gone);
      pending.clear();
    };
    worker.on("error", (error) =>
      stop(new Error(`database worker failed: ${error.message}`, { cause: error })),
    );
    worker.on("exit", (code) => {
      stop(new Error(`database worker exited (${code})`));
      resolve(code);
    });
  });
  worker.on(
    "message",
    (message: { id: number; ok: boolean; result?: unknown; error?: Record<string, unknown> }) => {
      const p = pending.get(message.id);
      if (!p) return;
      pending.delete(message.id);
      if (message.ok) p.resolve(message.result);
      else p.reject(new PgliteError(message.error ?? {}));
    },
  );

  function call<T>(message: Record<string, unknown>): Promise<T> {
    if (gone) return Promise.reject(gone);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ ...message, id });
    });
  }

  const connection = (tx: number | null): PgliteConnection => ({
    query: (sql, params = [], options = {}) =>
      call<QueryResult>({ type: "query", sql, params, rowMode: options.rowMode ?? "object", tx }),
    exec: (sql) => call<QueryResult[]>({ type: "exec", sql, tx }),
  });

  try {
    await call({ type: "open" });
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  return {
    ...connection(null),
    async transaction(callback) {
      const tx = await call<number>({ type: "begin" });
      let result;
      try {
        result = await callback(connection(tx));
      } catch (error) {
        await call({ type: "end", tx, commit: false }).catch(() => {});
        throw error;
      }
      await call({ type: "end", tx, commit: true });
      return result;
    },
    async close() {
      if (!gone) await call({ type: "close" }).catch(() => {});
      await worker.terminate();
    },
    exited,
  };
}
