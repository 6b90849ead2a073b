// @ts-check
// PGlite in a worker thread (docs/storage.md, "The database off the main thread"). PGlite is Postgres compiled to
// WebAssembly: every statement runs synchronously on the thread that owns it, so in the server's main thread one
// search over a library stalled every live stream and answer for as long as it ran. Here it owns this thread; the
// main thread talks to it by message (server/db/pglite-thread.ts), and Drizzle sits above that as above any driver.
//
// Plain JavaScript on purpose: the worker is started by path from Node, outside Next's bundle, by the server, the
// tests and the import alike.
import { parentPort, workerData } from "node:worker_threads";
import { PGlite, types } from "@electric-sql/pglite";

if (!parentPort) throw new Error("pglite-worker.mjs runs as a worker thread");
const port = parentPort;

/** Date and time columns stay the strings Postgres sends, as Drizzle's own PGlite driver asks (drizzle-orm/pglite). */
const identity = (/** @type {string} */ value) => value;
const PARSERS = {
  [types.TIMESTAMP]: identity,
  [types.TIMESTAMPTZ]: identity,
  [types.INTERVAL]: identity,
  [types.DATE]: identity,
  1231: identity, // numeric[]
  1115: identity, // timestamp[]
  1185: identity, // timestamptz[]
  1187: identity, // interval[]
  1182: identity, // date[]
};

/** @type {PGlite | null} */
let db = null;
/** Open transactions by id: PGlite's transaction object, and how to end it (true = commit). */
const transactions = new Map();
let nextTx = 1;

class Rollback extends Error {}

/** What crosses the thread boundary of an error: its message and Postgres's fields (code, detail, constraint…). */
function serialiseError(/** @type {unknown} */ error) {
  if (!(error instanceof Error)) return { message: String(error) };
  /** @type {Record<string, unknown>} */
  const out = { name: error.name, message: error.message };
  for (const [key, value] of Object.entries(error)) {
    if (value === undefined || typeof value === "function" || typeof value === "object") continue;
    out[key] = value;
  }
  return out;
}

function reply(/** @type {number} */ id, /** @type {unknown} */ result) {
  port.postMessage({ id, ok: true, result });
}

function fail(/** @type {number} */ id, /** @type {unknown} */ error) {
  port.postMessage({ id, ok: false, error: serialiseError(error) });
}

/** The connection a statement runs on: its transaction's, or the database itself (which waits for open ones). */
function target(/** @type {number | null} */ tx) {
  if (!db) throw new Error("the database is not open");
  if (tx === null) return db;
  const open = transactions.get(tx);
  if (!open) throw new Error(`transaction ${tx} is not open`);
  return open.tx;
}

async function handle(/** @type {any} */ message) {
  const { id, type } = message;
  try {
    switch (type) {
      case "open": {
        const { dataDir } = workerData;
        db = await PGlite.create(dataDir);
        reply(id, null);
        return;
      }
      case "query": {
        const result = await target(message.tx).query(message.sql, message.params, {
          rowMode: message.rowMode,
          parsers: PARSERS,
        });
        reply(id, { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows });
        return;
      }
      case "exec": {
        const results = await target(message.tx).exec(message.sql);
        reply(
          id,
          results.map((r) => ({ rows: r.rows, fields: r.fields, affectedRows: r.affectedRows })),
        );
        return;
      }
      case "begin": {
        if (!db) throw new Error("the database is not open");
        const txId = nextTx++;
        /** @type {(commit: boolean) => void} */
        let end = () => {};
        const ended = new Promise((resolve) => (end = resolve));
        let began = false;
        // PGlite runs the callback once no other transaction or statement holds the database, then holds it until
        // the callback settles: the main thread's statements of this transaction come in by id meanwhile.
        db.transaction(async (tx) => {
          began = true;
          transactions.set(txId, { tx, end });
          reply(id, txId);
          if (!(await ended)) throw new Rollback();
        })
          .then(
            () => transactions.get(txId)?.replyEnd(null),
            (error) => {
              const open = transactions.get(txId);
              if (!began) fail(id, error);
              else if (error instanceof Rollback) open?.replyEnd(null);
              else open?.replyEnd(error);
            },
          )
          .finally(() => transactions.delete(txId));
        return;
      }
      case "end": {
        const open = transactions.get(message.tx);
        if (!open) throw new Error(`transaction ${message.tx} is not open`);
        open.replyEnd = (/** @type {unknown} */ error) => (error ? fail(id, error) : reply(id, null));
        open.end(message.commit);
        return;
      }
      case "close": {
        await db?.close();
        db = null;
        reply(id, null);
        return;
      }
      default:
        throw new Error(`unknown request ${type}`);
    }
  } catch (error) {
    fail(id, error);
  }
}

port.on("message", (message) => void handle(message));
