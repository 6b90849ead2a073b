/**
 * The transcript archive (issue 16): backfill of the whole embedded archive into PGlite, then a mixed set of 200
 * searches (single words, phrases, exclusions, OR, filtered) timed one after the other; the same backfill and the
 * same searches on a PostgreSQL server started for the run (Debian's `postgresql`), reported beside it.
 * Targets: backfill of 600+ calls within 60 s; search p95 within 50 ms on PGlite.
 *
 * The PGlite backfill runs first, against a fresh service: its time includes the service building each historical
 * call on first request (what a first `npm start` waits for). The PostgreSQL backfill follows against the same,
 * by then warm, service, so it measures ingestion alone.
 *
 * The archive's modules are server modules (`server-only`), so the work runs in a child process with the
 * react-server condition; `runSearchBench()` (npm run bench -- --only search) spawns it and reads its JSON line.
 * Alone: `npx tsx --conditions=react-server bench/search.ts [--no-postgres]`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { EMBEDDED_ARGS } from "./lib/embedded-command";
import { archiveModules } from "./lib/archive-modules";
import { runChildBench } from "./lib/child-bench";
import { timeQueries } from "./lib/time-queries";
import { percentile, round } from "./lib/common";

const root = path.resolve(import.meta.dirname, "..");

export interface DriverFigures {
  backfillMs: number;
  calls: number;
  sentences: number;
  searchP50Ms: number;
  searchP95Ms: number;
  searchP99Ms: number;
  searchMaxMs: number;
  /** p95 by kind of query. */
  p95ByKind: Record<string, number>;
}

export interface SearchBenchResult {
  queries: number;
  pglite: DriverFigures;
  postgres: DriverFigures | { error: string };
  loadAverage: number[];
}

export async function runSearchBench(): Promise<SearchBenchResult> {
  return runChildBench<SearchBenchResult>("bench/search.ts", "search bench", { echo: true });
}

/* ------------------------------------------------------------------ the child */

export async function startEmbedded(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, EMBEDDED_ARGS, {
    cwd: root,
    env: { ...process.env, EMBEDDED_PORT: "0", EMBEDDED_HOST: "127.0.0.1", EMBEDDED_RATE_LIMIT: "0" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => reject(new Error("embedded service did not start in 60 s")), 60_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(text);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
  });
  return { url, child };
}

interface BenchQuery {
  kind: "word" | "phrase" | "exclusion" | "or" | "filtered";
  raw: Record<string, string>;
}

/** 200 queries built from the archive's own words, so each has work to do; deterministic for a given archive. */
function buildQueries(sentences: string[], symbols: string[]): BenchQuery[] {
  let seed = 20260214;
  const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)]!;
  const words = [
    "revenue",
    "margin",
    "guidance",
    "tariffs",
    "demand",
    "pricing",
    "backlog",
    "inflation",
    "headwinds",
    "growth",
    "cash",
    "dividend",
    "supply",
    "customers",
    "outlook",
    "costs",
    "orders",
    "capital",
    "china",
    "ai",
  ];
  const phrase = () => {
    const tokens = pick(sentences)
      .replace(/[^A-Za-z ]/g, " ")
      .split(/\s+/)
      .filter((t) => t.length > 3);
    const at = Math.floor(rand() * Math.max(1, tokens.length - 2));
    return `"${tokens.slice(at, at + 2 + Math.floor(rand() * 2)).join(" ")}"`;
  };
  const out: BenchQuery[] = [];
  for (let i = 0; i < 200; i += 1) {
    switch (i % 5) {
      case 0:
        out.push({ kind: "word", raw: { q: pick(words) } });
        break;
      case 1:
        out.push({ kind: "phrase", raw: { q: phrase() } });
        break;
      case 2:
        out.push({ kind: "exclusion", raw: { q: `${pick(words)} -${pick(words)}` } });
        break;
      case 3:
        out.push({ kind: "or", raw: { q: `${pick(words)} OR ${pick(words)}` } });
        break;
      default: {
        const filters: Record<string, string>[] = [
          { tickers: [pick(symbols), pick(symbols)].join(",") },
          { speaker: pick(["executive", "analyst", "operator"]) },
          { section: pick(["prepared", "qa"]) },
          { from: "2026-01-01", to: "2026-06-30" },
          { speaker: "analyst", section: "qa", page: "1" },
        ];
        out.push({ kind: "filtered", raw: { q: pick(words), ...pick(filters) } });
      }
    }
  }
  return out;
}

async function child(withPostgres: boolean): Promise<SearchBenchResult> {
  const {
    searchQuerySchema,
    createArchive,
    searchArchive,
    createDatabase,
    queryRows,
    MemoryBus,
    sql,
    startTestPostgres,
    archiveSource,
  } = await archiveModules();

  const embedded = await startEmbedded();
  const { log, source } = archiveSource(embedded.url, "info");
  const dirs: string[] = [];
  let queries: BenchQuery[] | null = null;

  async function measure(database: Awaited<ReturnType<typeof createDatabase>>): Promise<DriverFigures> {
    const handle = { driver: database.driver, get: async () => database, close: async () => {} };
    const archive = createArchive({ database: handle, log, source, live: new MemoryBus() });
    const started = performance.now();
    archive.start();
    while ((await archive.progress()).state !== "live") {
      const p = await archive.progress();
      if (p.state === "error") throw new Error(p.lastError ?? "backfill failed");
      await new Promise((r) => setTimeout(r, 50));
    }
    const backfillMs = performance.now() - started;
    const progress = await archive.progress();
    await archive.stop();
    if (!queries) {
      const sample = await queryRows<{ text: string }>(
        database.db,
        sql`SELECT text FROM archive_segments ORDER BY call_id, sequence LIMIT 2000`,
      );
      const symbols = await queryRows<{ symbol: string }>(
        database.db,
        sql`SELECT DISTINCT symbol FROM archive_calls`,
      );
      queries = buildQueries(
        sample.map((s) => s.text),
        symbols.map((s) => s.symbol),
      );
    }
    const { times, byKind } = await timeQueries(queries, (q) =>
      searchArchive(database.db, searchQuerySchema.parse(q.raw)),
    );
    return {
      backfillMs: Math.round(backfillMs),
      calls: progress.archived.calls,
      sentences: progress.archived.segments,
      searchP50Ms: round(percentile(times, 50)),
      searchP95Ms: round(percentile(times, 95)),
      searchP99Ms: round(percentile(times, 99)),
      searchMaxMs: round(Math.max(...times)),
      p95ByKind: Object.fromEntries([...byKind].map(([k, v]) => [k, round(percentile(v, 95))])),
    };
  }

  try {
    const dir = mkdtempSync(path.join(tmpdir(), "callroom-bench-pglite-"));
    dirs.push(dir);
    const pglite = await createDatabase({ dataDir: dir, logger: log });
    const pgliteFigures = await measure(pglite);
    await pglite.close();
    console.error(`PGlite: ${JSON.stringify(pgliteFigures)}`);
    let postgresFigures: DriverFigures | { error: string } = { error: "skipped (--no-postgres)" };
    if (withPostgres) {
      try {
        const server = await startTestPostgres();
        try {
          const pg = await createDatabase({ url: server.url, dataDir: "", logger: log });
          postgresFigures = await measure(pg);
          await pg.close();
        } finally {
          await server.stop();
        }
      } catch (error) {
        postgresFigures = { error: error instanceof Error ? error.message : String(error) };
      }
      console.error(`PostgreSQL: ${JSON.stringify(postgresFigures)}`);
    }
    return {
      queries: (queries as BenchQuery[] | null)?.length ?? 0,
      pglite: pgliteFigures,
      postgres: postgresFigures,
      loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
    };
  } finally {
    embedded.child.kill("SIGTERM");
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await child(!process.argv.includes("--no-postgres"));
  console.log(JSON.stringify(result));
  process.exit(0);
}
