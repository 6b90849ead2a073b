/**
 * `npm run import -- [--json] <file-or-folder>…`: transcripts from elsewhere into the archive (docs/storage.md,
 * "Imported calls"). A folder means its `*.json` files. With `--json`, one line per file on stdout:
 * `{"file","callId","symbol","sentences"}`, or `{"file","error"}` for a file that could not be imported; the rest go
 * on. Logs and the progress bar (on a terminal) go to stderr. Exit 0 only when every file imported.
 *
 * Where the calls go, from the app's environment (CALLROOM_DATA_DIR, DATABASE_URL, PORT, HOST):
 * - DATABASE_URL: straight into that PostgreSQL server (any number of processes may write to it);
 * - PGlite, folder free: this process opens the folder (claiming it like the app does; migrations applied to a new
 *   database) and writes;
 * - PGlite, folder held by a running app: through the app (`POST /api/archive/import` at http://HOST:PORT, with the
 *   token from the folder's lock), since two processes must never open one PGlite folder; refused with what to do
 *   when no app answers there.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { SingleBar } from "cli-progress";
import {
  IMPORT_BATCH_MAX_CALLS,
  importResponseSchema,
  type ImportResult,
} from "@/lib/schemas/archive-import";
import { parseImportFile, type ImportedCall } from "@/server/archive/import/parse-file";
import { ArchiveStore } from "@/server/archive/store";
import { readConfig } from "@/server/config";
import { createDatabase, type Database } from "@/server/db/database";
import { folderOwner } from "@/server/db/folder-owner.mjs";

/** A batch sent to the app stays around this size: small enough that the app's event loop never notices it. */
const BATCH_BYTES = 1_000_000;
/**
 * Files a direct import stores in one transaction: the word counts of a batch are written in one statement at its
 * end, and fewer, larger batches visit the counts' index less often. Nothing else waits on an import that opened
 * the folder itself; on PostgreSQL readers never wait on a writer.
 */
const DIRECT_BATCH_BYTES = 8_000_000;

type Line =
  { file: string; callId: string; symbol: string; sentences: number } | { file: string; error: string };

function usage(): never {
  process.stderr.write("usage: npm run import -- [--json] <file-or-folder>…\n");
  process.exit(2);
}

function log(message: string): void {
  process.stderr.write(`[import] ${message}\n`);
}

/** The files to import, in order; a path that cannot be read becomes an error line of its own. */
function expand(args: string[]): { files: string[]; missing: Line[] } {
  const files: string[] = [];
  const missing: Line[] = [];
  for (const arg of args) {
    const full = path.resolve(arg);
    let isDir: boolean;
    try {
      isDir = statSync(full).isDirectory();
    } catch {
      missing.push({ file: full, error: "no such file or folder" });
      continue;
    }
    if (!isDir) files.push(full);
    else {
      const inside = readdirSync(full)
        .filter((name) => name.toLowerCase().endsWith(".json"))
        .sort()
        .map((name) => path.join(full, name));
      files.push(...inside);
    }
  }
  return { files, missing };
}

interface Sink {
  /** Bytes of files gathered before one `store` (0: every file on its own). */
  batchBytes: number;
  /** Stores the calls; one result (or the reason it was not stored) per call, in order. */
  store(calls: ImportedCall[]): Promise<(ImportResult | { error: string })[]>;
  close(): Promise<void>;
  describe: string;
}

async function directSink(database: Database, where: string): Promise<Sink> {
  const store = new ArchiveStore(database.db);
  return {
    describe: where,
    batchBytes: DIRECT_BATCH_BYTES,
    async store(calls) {
      const result = (call: ImportedCall["call"], stored: boolean): ImportResult => ({
        callId: call.callId.toLowerCase(),
        symbol: call.symbol,
        sentences: call.segments.length,
        stored,
      });
      // One transaction a batch, its word counts written once at its end (docs/storage.md, "Imports count their
      // words once a batch").
      try {
        const outcome = await store.storeCalls(calls);
        return calls.map(({ call }, i) => result(call, outcome[i] === "stored"));
      } catch {
        // The batch rolled back whole: each call again on its own, so only the file at fault fails.
        const out: (ImportResult | { error: string })[] = [];
        for (const one of calls) {
          try {
            const [outcome] = await store.storeCalls([one]);
            out.push(result(one.call, outcome === "stored"));
          } catch (error) {
            out.push({ error: `not stored: ${error instanceof Error ? error.message : String(error)}` });
          }
        }
        return out;
      }
    },
    async close() {
      await store.compactSearchIndex({ vacuum: true });
      await database.close();
    },
  };
}

function appSink(baseUrl: string, token: string): Sink {
  return {
    describe: `the running app at ${baseUrl}`,
    batchBytes: BATCH_BYTES,
    async store(calls) {
      for (let attempt = 0; ; attempt += 1) {
        const response = await fetch(`${baseUrl}/api/archive/import`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
          body: JSON.stringify({ calls }),
        });
        const text = await response.text();
        if (response.status === 429 && attempt < 20) {
          const wait = Number(response.headers.get("retry-after") ?? "1");
          await new Promise((resolve) => setTimeout(resolve, Math.max(1, wait) * 1000));
          continue;
        }
        if (!response.ok) {
          let message = text.slice(0, 300);
          try {
            message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? message;
          } catch {}
          throw new Error(`the app answered ${response.status}: ${message}`);
        }
        return importResponseSchema.parse(JSON.parse(text)).data;
      }
    },
    async close() {},
  };
}

async function openSink(): Promise<Sink> {
  // The server's own reader (docs/architecture.md "Configuration"): the same variables, defaults and rules.
  const config = readConfig(process.env);
  const url = config.database.url?.trim();
  const quiet = { info() {}, warn: (o: unknown, m?: string) => log(m ?? String(o)), error() {} };
  if (url) {
    const database = await createDatabase({ url, dataDir: "", logger: quiet, purpose: "import" });
    return directSink(database, "PostgreSQL (DATABASE_URL)");
  }
  const dataDir = path.resolve(config.database.dataDir.trim());
  const owner = folderOwner(dataDir);
  if (!owner) {
    const database = await createDatabase({ dataDir, logger: quiet, purpose: "import" });
    return directSink(database, `PGlite in ${dataDir}`);
  }
  const host = config.server.host.trim();
  const port = String(config.server.port);
  const reachable = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
  const baseUrl = `http://${reachable.includes(":") ? `[${reachable}]` : reachable}:${port}`;
  const refuse = (why: string): never => {
    throw new Error(
      `The database folder ${dataDir} is in use by process ${owner.pid} (${owner.purpose || "Callroom"}), ` +
        `and ${why}. Set PORT (and HOST) to the running app's, or stop process ${owner.pid} and import again ` +
        "(the import then opens the folder itself).",
    );
  };
  if (owner.purpose !== "server" || !owner.token)
    refuse("it is not a Callroom server that could take the import");
  try {
    const health = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(10_000) });
    if (!health.ok && health.status !== 503) refuse(`${baseUrl}/api/health answered ${health.status}`);
  } catch {
    refuse(`no Callroom app answers at ${baseUrl}`);
  }
  // The token is in the lock (mode 0600): folderOwner read it, as only this machine's user of the folder can.
  return appSink(baseUrl, owner.token!);
}

async function main(): Promise<number> {
  const args = process.argv.slice(2).filter((a) => a !== "--");
  const json = args.includes("--json");
  const paths = args.filter((a) => a !== "--json");
  if (paths.length === 0 || paths.some((p) => p.startsWith("--"))) usage();
  const { files, missing } = expand(paths);
  let failures = 0;
  let imported = 0;
  let sentences = 0;
  const emit = (line: Line) => {
    if ("error" in line) {
      failures += 1;
      log(`${line.file}: ${line.error}`);
    } else {
      imported += 1;
      sentences += line.sentences;
    }
    if (json) process.stdout.write(`${JSON.stringify(line)}\n`);
  };
  missing.forEach(emit);
  if (files.length === 0) {
    log("no .json file to import");
    return missing.length > 0 ? 1 : 0;
  }

  let sink: Sink;
  try {
    sink = await openSink();
  } catch (error) {
    log(error instanceof Error ? error.message : String(error));
    for (const file of files) {
      if (json)
        process.stdout.write(
          `${JSON.stringify({ file, error: "not imported: the database is not available" })}\n`,
        );
    }
    return 1;
  }
  log(`importing ${files.length} file${files.length === 1 ? "" : "s"} into ${sink.describe}`);
  const started = performance.now();
  const bar = process.stderr.isTTY
    ? new SingleBar({
        stream: process.stderr,
        format: "[import] {bar} {value}/{total} files | {sentences} sentences | {eta_formatted} left",
        hideCursor: true,
      })
    : null;
  bar?.start(files.length, 0, { sentences: 0 });

  let batch: { file: string; imported: ImportedCall }[] = [];
  let batchBytes = 0;
  const store = async (pending: typeof batch) => {
    try {
      const results = await sink.store(pending.map((p) => p.imported));
      results.forEach((r, i) =>
        emit(
          "error" in r
            ? { file: pending[i]!.file, error: r.error }
            : { file: pending[i]!.file, callId: r.callId, symbol: r.symbol, sentences: r.sentences },
        ),
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      for (const p of pending) emit({ file: p.file, error: `not stored: ${message}` });
    }
    bar?.update(imported + failures, { sentences });
  };
  // One batch is stored while the next is read: the database works in its own thread (PGlite's worker) or server,
  // so reading and storing share the machine's cores instead of taking turns. At most one batch waits.
  let storing: Promise<void> = Promise.resolve();
  const flush = async () => {
    await storing;
    if (batch.length === 0) return;
    const pending = batch;
    batch = [];
    batchBytes = 0;
    storing = store(pending);
  };

  for (const file of files) {
    let parsed: ImportedCall;
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
      parsed = parseImportFile(file, bytes);
    } catch (error) {
      emit({ file, error: error instanceof Error ? error.message : String(error) });
      bar?.update(imported + failures, { sentences });
      continue;
    }
    batch.push({ file, imported: parsed });
    batchBytes += bytes.length;
    if (batchBytes >= sink.batchBytes || batch.length >= IMPORT_BATCH_MAX_CALLS) await flush();
    // Lets the batch being stored send its next statement between two files.
    else await new Promise((resolve) => setImmediate(resolve));
  }
  await flush();
  await storing;
  bar?.stop();
  try {
    await sink.close();
  } catch (error) {
    log(`closing the database failed: ${error instanceof Error ? error.message : String(error)}`);
    failures += 1;
  }
  const seconds = (performance.now() - started) / 1000;
  // This process's CPU, its database worker included (what the import costs on a machine it has to itself).
  const cpu = process.cpuUsage();
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  log(
    `${imported} call${imported === 1 ? "" : "s"} (${sentences} sentences) imported in ${seconds.toFixed(1)} s` +
      ` (CPU ${cpuSeconds.toFixed(1)} s)` +
      (failures > 0 ? `; ${failures} file${failures === 1 ? "" : "s"} failed` : ""),
  );
  return failures === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
